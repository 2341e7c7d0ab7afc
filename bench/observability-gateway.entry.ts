// Child process for bench/observability.ts: the real gateway (same-format chat provider on the
// mock, a key with a spending limit) with one job worker, forwarding as a deployment does: its
// destinations made through the management API (webhooks, OTLP JSON to BENCH_OBS_RECEIVER_URL
// through the real outbound client), read by the request side from the store's read cache.
// BENCH_OBS_MODE: `none` (broadcast off, the default of every workspace), `broadcast` (broadcast
// on, 3 destinations) or `io-logging` (I/O logging keeps every prompt and completion, broadcast
// off) or `capture-only` (broadcast on with no job worker: the outbox rows pile up, what is left
// is the request side's capture). Its control server answers the
// process's CPU (every thread) and the main thread's alone (process.threadCpuUsage, µs), which is
// where requests are served.
import { createInferenceKey, startTestGateway, tempDir } from "../test/support/gateway";
import { onTerminate } from "./lib/child";
import { SAME_FORMAT_MODEL } from "./lib/models";

const upstreamUrl = process.env.BENCH_UPSTREAM_URL;
const receiverUrl = process.env.BENCH_OBS_RECEIVER_URL;
// a twin (bench/observability.ts) is a second gateway of the same mode
const mode = (process.env.BENCH_OBS_MODE ?? "none").replace(/-twin$/, "");
if (!upstreamUrl || !receiverUrl) throw new Error("BENCH_UPSTREAM_URL and BENCH_OBS_RECEIVER_URL are required");

const yaml = `security: { allow_private_urls: true }
providers:
  - { slug: mock-chat, api: openai-chat, base_url: "${upstreamUrl}", api_key: bench-key }
models:
  - id: ${SAME_FORMAT_MODEL}
    endpoints: [{ provider: mock-chat, model: m-chat, pricing: { prompt: "0.000001", completion: "0.000002" } }]
`;

// BENCH_OBS_DIR: a data directory the caller made (observability-worker.ts opens the same database from its own process)
const dir = process.env.BENCH_OBS_DIR ?? tempDir("gw-bench-obs-");
const gw = await startTestGateway({ dir, yaml, env: { WORKERS: mode === "capture-only" ? "0" : "1" } });
onTerminate(() => gw.close());
const { key } = await createInferenceKey(gw, { name: "bench", limit: 1000 });
const workspaceId = ((await (await gw.api("/api/v1/workspaces")).json()) as { data: Array<{ id: string }> }).data[0]!.id;
const destination = (n: number) => ({
  name: `bench ${n}`,
  type: "webhook",
  workspace_id: workspaceId,
  privacy_mode: n === 2,
  sampling_rate: 1,
  // broadcast-filtered: every generation is captured and drained, none matches (no delivery job)
  filter_rules:
    mode === "broadcast-filtered"
      ? { groups: [{ rules: [{ field: "model", operator: "equals", value: "no/such-model" }] }] }
      : n === 3
        ? { groups: [{ rules: [{ field: "model", operator: "regex", value: "^bench/" }] }] }
        : null,
  config: { url: `${receiverUrl}/${n}` },
});
for (const n of [1, 2, 3]) {
  // the receiver counts every POST it gets: no test probe, so it counts deliveries only
  const created = await gw.api("/api/v1/observability/destinations?skip_test=true", { method: "POST", json: destination(n) });
  if (created.status !== 201) throw new Error(`destination ${n}: ${created.status} ${await created.text()}`);
}
async function setBroadcast(on: boolean): Promise<void> {
  const settings = { is_observability_broadcast_enabled: on, is_observability_io_logging_enabled: mode === "io-logging" };
  const patched = await gw.api(`/api/v1/workspaces/${workspaceId}`, { method: "PATCH", json: settings });
  if (patched.status !== 200) throw new Error(`workspace settings: ${patched.status}`);
}
await setBroadcast(mode === "broadcast" || mode === "broadcast-filtered" || mode === "capture-only");

/** utime + stime of the main thread (the one serving requests, where this control server runs too), in µs (getrusage RUSAGE_THREAD) */
function mainThreadUs(): number {
  const used = process.threadCpuUsage();
  return used.user + used.system;
}
const control = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  // CPU only: nothing here may query the store, or the main thread's figure would include it
  // (POST /broadcast/on|off, BENCH_OBS_TOGGLE: answered before the CPU is read, not inside a batch)
  fetch: async (req) => {
    if (req.method === "POST") {
      await setBroadcast(new URL(req.url).pathname === "/broadcast/on");
      return new Response(null, { status: 204 });
    }
    const all = process.cpuUsage();
    return Response.json({ all: all.user + all.system, main: mainThreadUs() });
  },
});
console.log(JSON.stringify({ url: gw.url, key, control: `http://127.0.0.1:${control.port}/` }));
