// What forwarding costs the job worker (not a test; loopback only). See bench/README.md.
//
// A gateway with broadcast on and 3 destinations but no job worker (`capture-only`), and its job
// worker in a process of its own (observability-worker.entry.ts) on the same SQLite file, so the
// worker's CPU is measured apart from the requests': the CPU of that process per forwarded
// generation (the outbox drain, 3 deliveries, their job rows), and how fast it forwards.
// BENCH_WORKER_PROFILE=1 writes a CPU profile of the worker to $TMPDIR/gw-bench-worker-profile.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnChild, spawnCommand } from "./lib/child";
import { envInt } from "./lib/env";
import { runBatch } from "./lib/load";
import { machineLine } from "./lib/machine";
import { chatBody, SAME_FORMAT_MODEL } from "./lib/models";
import { startTraceReceiver } from "./lib/trace-receiver";

const ROUNDS = envInt("BENCH_ROUNDS", 3);
const REQUESTS = envInt("BENCH_REQUESTS", 3000);
const CONCURRENCY = envInt("BENCH_CONCURRENCY", 16);
const DESTINATIONS = 3;
const profileDir = join(tmpdir(), "gw-bench-worker-profile");

const dir = mkdtempSync(join(tmpdir(), "gw-bench-obs-worker-"));
const receiver = startTraceReceiver();
const upstream = await spawnChild<{ url: string }>(join(import.meta.dir, "upstream.entry.ts"));
const gateway = await spawnCommand<{ url: string; key: string }>(["bun", join(import.meta.dir, "observability-gateway.entry.ts")], {
  BENCH_UPSTREAM_URL: upstream.info.url,
  BENCH_OBS_RECEIVER_URL: receiver.url,
  BENCH_OBS_MODE: "capture-only",
  BENCH_OBS_DIR: dir,
});
const profile = process.env.BENCH_WORKER_PROFILE === "1" ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
const worker = await spawnCommand<object>(["bun", ...profile, join(import.meta.dir, "observability-worker.entry.ts")], { BENCH_OBS_DIR: dir });
const spec = [
  {
    url: `${gateway.info.url}/api/v1/chat/completions`,
    headers: { authorization: `Bearer ${gateway.info.key}`, "content-type": "application/json" },
    body: chatBody(SAME_FORMAT_MODEL, false),
    stream: false,
  },
];

async function forwarded(count: number): Promise<void> {
  for (let i = 0; i < 12_000 && receiver.delivered() < count; i++) await Bun.sleep(5);
  if (receiver.delivered() < count) throw new Error(`deliveries: ${receiver.delivered()} of ${count}`);
}

console.log(machineLine());
console.log(`job worker bench: ${ROUNDS} rounds × ${REQUESTS} generations, ${DESTINATIONS} destinations each, ${CONCURRENCY} connections`);
await runBatch(spec, 300, CONCURRENCY);
await forwarded(300 * DESTINATIONS);
const rows: Array<{ cpu: number; seconds: number; exports: number }> = [];
for (let round = 0; round < ROUNDS; round++) {
  const target = receiver.delivered() + REQUESTS * DESTINATIONS;
  const exportsBefore = receiver.exports();
  const before = await worker.cpu();
  const started = performance.now();
  await runBatch(spec, REQUESTS, CONCURRENCY);
  await forwarded(target);
  const seconds = (performance.now() - started) / 1000;
  const after = await worker.cpu();
  rows.push({ cpu: (after.user + after.system - before.user - before.system) / REQUESTS, seconds, exports: receiver.exports() - exportsBefore });
}
console.log("\n| round | job worker CPU µs per generation | per delivery | generations forwarded per s | generations per export |");
console.log("|---|---|---|---|---|");
for (const [i, r] of rows.entries())
  console.log(
    `| ${i + 1} | ${r.cpu.toFixed(0)} | ${(r.cpu / DESTINATIONS).toFixed(0)} | ${(REQUESTS / r.seconds).toFixed(0)} | ${((REQUESTS * DESTINATIONS) / r.exports).toFixed(1)} |`,
  );
for (const child of [worker, gateway, upstream]) await child.stop();
receiver.stop();
rmSync(dir, { recursive: true, force: true });
if (profile.length > 0) console.log(`\nCPU profile of the job worker: ${profileDir}`);
