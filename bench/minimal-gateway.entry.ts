// Child process: the least a gateway that keeps this project's promises must do, written
// without any of its structure. It is the reference for asking whether a CPU goal is
// reachable at all in this runtime: whatever the real gateway costs above this is its own.
// Per request it: reads and parses the JSON body, hashes the bearer key and looks it up,
// sends the request upstream, reads the usage back (parsing a JSON answer; for a stream
// only the lines that carry usage, forwarding the bytes as they come), rewrites id and
// usage cost on a JSON answer, and commits one generation row to SQLite (WAL, rows of
// requests that finish together in one transaction) before the answer's last bytes.
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { announceReady, onTerminate } from "./lib/child";

const upstream = new URL(process.env.BENCH_UPSTREAM_URL ?? "").origin;
if (upstream === "null") throw new Error("BENCH_UPSTREAM_URL is required");
const KEY = "sk-minimal-bench";
const keys = new Map([[new Bun.CryptoHasher("sha256").update(KEY).digest("hex"), { id: "k1", limitNanos: 1e15, spentNanos: 0 }]]);

const dir = mkdtempSync(join(tmpdir(), "minimal-gateway-"));
const db = new Database(join(dir, "g.db"));
db.exec(
  "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; CREATE TABLE g (id TEXT PRIMARY KEY, key TEXT, model TEXT, prompt INT, completion INT, cost INT, created INT)",
);
const insert = db.prepare("INSERT INTO g VALUES (?, ?, ?, ?, ?, ?, ?)");
type Row = [string, string, string, number, number, number, number];
let pending: { row: Row; done: () => void }[] = [];
const commitAll = db.transaction((rows: Row[]) => {
  for (const r of rows) insert.run(...r);
});
function record(row: Row): Promise<void> {
  return new Promise((done) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push({ row, done });
  });
}
function flush() {
  const batch = pending;
  pending = [];
  commitAll(batch.map((p) => p.row));
  for (const p of batch) p.done();
}

let seq = 0;
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  idleTimeout: 0,
  async fetch(req) {
    const auth = req.headers.get("authorization") ?? "";
    const key = keys.get(new Bun.CryptoHasher("sha256").update(auth.slice(7)).digest("hex"));
    if (!key) return Response.json({ error: { code: 401, message: "no key" } }, { status: 401 });
    const body = (await req.json()) as { model: string; stream?: boolean };
    const id = `gen-${Date.now()}-${++seq}`;
    const res = await fetch(`${upstream}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer upstream" },
      body: JSON.stringify({ ...body, model: "mock-model" }),
    });
    if (!body.stream) {
      const answer = (await res.json()) as { id: string; model: string; usage: { prompt_tokens: number; completion_tokens: number; cost?: number } };
      const cost = answer.usage.prompt_tokens * 1000 + answer.usage.completion_tokens * 2000;
      await record([id, key.id, body.model, answer.usage.prompt_tokens, answer.usage.completion_tokens, cost, Date.now()]);
      return new Response(JSON.stringify({ ...answer, id, model: body.model, usage: { ...answer.usage, cost: cost / 1e9 } }), {
        headers: { "content-type": "application/json", "x-generation-id": id },
      });
    }
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        const text = decoder.decode(value, { stream: true });
        const at = text.indexOf('"usage":{');
        if (at >= 0) {
          const prompt = Number(/"prompt_tokens":(\d+)/.exec(text)?.[1] ?? 0);
          const completion = Number(/"completion_tokens":(\d+)/.exec(text)?.[1] ?? 0);
          await record([id, key.id, body.model, prompt, completion, prompt * 1000 + completion * 2000, Date.now()]);
        }
        controller.enqueue(value);
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream", "x-generation-id": id } });
  },
});
onTerminate(() => {
  server.stop(true);
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
announceReady({ url: `http://127.0.0.1:${server.port}`, key: KEY });
