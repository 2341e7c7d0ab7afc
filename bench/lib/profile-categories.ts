// Buckets the samples of a Bun/JSC .cpuprofile into the gateway's per-request
// concerns. A sample goes to the first category (in list order) that any frame
// of its stack matches, so e.g. a drizzle frame under authenticate() counts as auth.

type Frame = { functionName: string; url: string };
type Node = { id: number; callFrame: Frame; children?: number[] };
export type CpuProfile = { nodes: Node[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

const file =
  (...names: string[]) =>
  (f: Frame) =>
    names.some((n) => f.url.includes(n));
const fn =
  (path: string, ...names: string[]) =>
  (f: Frame) =>
    f.url.includes(path) && names.includes(f.functionName);

const CATEGORIES: Array<[string, (f: Frame) => boolean]> = [
  ["auth (key/workspace/user lookup)", file("/src/http/auth.ts", "/src/crypto/key-secret.ts", "/src/store/read-cache.ts", "/src/store/cached-store.ts")],
  // the response cache's own steps (BENCH_PROFILE_CACHE=1): the key, the look-up, a hit's rendering
  ["response cache: key (canonical JSON + SHA-256)", file("/response-cache/cache-key.ts", "/response-cache/completion-request.ts")],
  [
    "response cache: look-up (store read, answer parse)",
    file("/store/sqlite/response-cache.ts", "/store/pg/response-cache.ts", "/response-cache/cached-answer.ts"),
  ],
  ["response cache: hit rendered (encode, replay)", file("/gateway/cached-response.ts", "/response-cache/replay.ts")],
  ["rate limits (admission, release)", file("/billing/rate-limit.ts", "/shared-state/rate")],
  ["access log + metrics", file("/src/telemetry/", "prom-client")],
  // the group commit runs from the writer's own turn: its frames, or the dialect's commit
  ["generation record: group commit (tx + insert + spend)", file("/gateway/generation-writer.ts", "/store/sqlite/generations.ts", "/store/pg/generations.ts")],
  ["reservation (reserve/release)", file("/store/sqlite/reservations.ts", "/store/pg/reservations.ts", "/billing/admission.ts")],
  ["generation record: build row", fn("/gateway/record.ts", "generationRecord")],
  ["routing plan + endpoint stats", file("/gateway/routing/", "/gateway/candidates.ts")],
  ["body validation (TypeBox)", file("@sinclair/typebox", "/elysia/dist/schema")],
  ["decode inbound request", file("decode-request.ts", "decode-messages.ts", "decode-content.ts")],
  ["encode upstream request", file("encode-request.ts", "encode-messages.ts", "encode-blocks.ts")],
  ["decode upstream response/SSE", file("decode-result.ts", "decode-stream.ts", "sse-reader.ts", "eventsource-parser", "stream-blocks.ts")],
  // same format in and out, the passthrough rewrite does the encoder's job
  [
    "encode inbound response/SSE, or passthrough rewrite",
    file(
      "encode-result.ts",
      "encode-stream.ts",
      "/encoder-writer.ts",
      "/passthrough.ts",
      "/passthrough-stream.ts",
      "/chunk-head.ts",
      "/json-object.ts",
      "/sse-frame.ts",
    ),
  ],
  ["upstream call (transport, fetch)", file("/providers/transport.ts", "/providers/first-byte-deadline.ts", "/gateway/completion-attempt.ts")],
  ["pricing (billing/)", file("/src/billing/")],
  ["other gateway orchestration", file("/src/gateway/", "/modules/inference/")],
  ["store (other queries, drivers)", file("/src/store/", "drizzle-orm")],
  ["Elysia (routing, body parse, hooks)", file("/elysia/", "@elysiajs")],
  ["garbage collector", (f) => f.functionName === "(garbage collector)"],
];
const OTHER = "other (Bun HTTP server/client, streams, event loop)";

/** Within a category: where the leaf of the stack is. */
function leafKind(stack: Frame[]): string {
  const leaf = stack[stack.length - 1]!;
  const inSqlite = stack.some((f) => f.url.startsWith("bun:sqlite"));
  if (inSqlite && leaf.url === "" && leaf.functionName === "prepare") return "sqlite3_prepare (statement not cached)";
  if (inSqlite && leaf.url === "") return "sqlite step/commit (native)";
  if (leaf.url.includes("drizzle-orm")) return "drizzle-orm JS (query building, row mapping)";
  return "rest";
}

export type Breakdown = { totalUs: number; samples: number; rows: Array<{ category: string; us: number; leaves: Map<string, number> }> };

/** Time per category over samples taken in [fromUs, toUs] (epoch µs, as the profile's timestamps). */
export function categorize(profile: CpuProfile, fromUs: number, toUs: number, intervalUs: number): Breakdown {
  const parent = new Map<number, number>();
  const byId = new Map<number, Node>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const rows = new Map<string, { us: number; leaves: Map<string, number> }>();
  let t = profile.startTime;
  let totalUs = 0;
  let samples = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    if (t < fromUs || t > toUs) continue;
    // a sample stands for the time since the previous one, capped so idle gaps do not count
    const weight = Math.min(profile.timeDeltas[i]!, 2 * intervalUs);
    const stack: Frame[] = [];
    for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) stack.unshift(byId.get(id)!.callFrame);
    if (stack.length <= 1 || stack[stack.length - 1]!.functionName === "(idle)") continue;
    const category = CATEGORIES.find(([, match]) => stack.some(match))?.[0] ?? OTHER;
    const row = rows.get(category) ?? { us: 0, leaves: new Map() };
    row.us += weight;
    let kind = leafKind(stack);
    if (process.env.BENCH_PROFILE_LEAVES && kind === "rest") {
      // the innermost frame of our own code, and the leaf below it
      const own = [...stack].reverse().find((f) => f.url.includes("/src/"));
      const leaf = stack[stack.length - 1]!;
      kind = `${own ? `${own.url.split("/src/")[1]}:${own.functionName}` : "?"} > ${leaf.functionName || "(anon)"}`;
    }
    row.leaves.set(kind, (row.leaves.get(kind) ?? 0) + weight);
    rows.set(category, row);
    totalUs += weight;
    samples++;
  }
  return {
    totalUs,
    samples,
    rows: [...rows].map(([category, r]) => ({ category, ...r })).sort((a, b) => b.us - a.us),
  };
}
