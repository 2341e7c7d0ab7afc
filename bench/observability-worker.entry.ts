// Child process for bench/observability-worker.ts: the job worker of a gateway started in
// `capture-only` mode (observability-gateway.entry.ts, BENCH_OBS_DIR), run on this process's main
// thread instead of a worker thread, so its CPU is this process's alone and `bun --cpu-prof`
// samples it. It opens the gateway's own SQLite file and configuration, as a worker thread does.
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { runJobWorker } from "../src/jobs/worker-main";
import { ADMIN_KEY } from "../test/support/gateway";
import { announceReady, onTerminate } from "./lib/child";

const dir = process.env.BENCH_OBS_DIR;
if (!dir) throw new Error("BENCH_OBS_DIR is required");
const config = loadConfig({
  PORT: "0",
  DATABASE_URL: `file:${join(dir, "gateway.db")}`,
  GATEWAY_ADMIN_KEY: ADMIN_KEY,
  LOG_LEVEL: "error",
  WORKERS: "1",
  GATEWAY_CONFIG: join(dir, "gateway.yaml"),
});
let started: () => void = () => {};
const ready = new Promise<void>((resolve) => (started = resolve));
const handle = runJobWorker((message) => {
  if (message.type === "started") started();
  else if (message.type === "failed") throw new Error(`job worker: ${message.error}`);
});
// no job modules: the destinations are the gateway's own, in its database
await handle({ type: "start", config, index: 0, modules: [] });
await ready;
// the gateway's wake-ups do not reach another process: its outbox is polled this often instead
const polling = setInterval(() => void handle({ type: "outbox" }), 10);
onTerminate(async () => {
  clearInterval(polling);
  await handle({ type: "stop", graceMs: 1000 });
});
announceReady({});
