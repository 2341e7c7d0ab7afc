// Syscalls per request (issue 13: "count syscalls and threads per request"): strace -f -c attached
// to each child (the floor proxy, then the gateway) for one batch of requests after a warm-up of
// 3,000, and each child's threads. BENCH_REQUESTS (4000), BENCH_STREAM=1 (50-chunk streams),
// BENCH_TRANSLATED=1 (the anthropic-messages upstream). Linux only; needs strace. strace slows
// every syscall, so read the counts, not the times.
import { join } from "node:path";
import { spawnChild } from "./lib/child";
import { type RequestSpec, runBatch } from "./lib/load";
import { chatBody, SAME_FORMAT_MODEL, TRANSLATED_MODEL, UPSTREAM_MODEL } from "./lib/models";

const here = import.meta.dir;
const requests = Number(process.env.BENCH_REQUESTS ?? 4000);
const stream = process.env.BENCH_STREAM === "1";
const model = process.env.BENCH_TRANSLATED === "1" ? TRANSLATED_MODEL : SAME_FORMAT_MODEL;
const upstream = await spawnChild<{ url: string }>(join(here, "upstream.entry.ts"));
const env = { BENCH_UPSTREAM_URL: upstream.info.url };
const floor = await spawnChild<{ url: string }>(join(here, "floor-proxy.entry.ts"), env);
const gateway = await spawnChild<{ url: string; key: string }>(join(here, "gateway.entry.ts"), env);
const body = chatBody(model, stream);
const specs: Array<[string, RequestSpec, number]> = [
  [
    "floor",
    { url: `${floor.info.url}/v1/chat/completions`, headers: { "content-type": "application/json" }, body: chatBody(UPSTREAM_MODEL, stream), stream },
    floor.proc.pid,
  ],
  [
    "gateway",
    {
      url: `${gateway.info.url}/api/v1/chat/completions`,
      headers: { "content-type": "application/json", authorization: `Bearer ${gateway.info.key}` },
      body,
      stream,
    },
    gateway.proc.pid,
  ],
];
for (const [name, spec, pid] of specs) {
  await runBatch(spec, 3000, 16);
  const out = `/tmp/syscalls-${name}.txt`;
  const tracer = Bun.spawn(["strace", "-f", "-c", "-p", String(pid), "-o", out], { stderr: "ignore" });
  await Bun.sleep(1500);
  await runBatch(spec, requests, 16);
  await Bun.sleep(300);
  tracer.kill("SIGINT");
  await tracer.exited;
  const lines = (await Bun.file(out).text()).split("\n").filter((l) => /^\s*[\d.]+\s+[\d.]+\s+\d+\s+\d+/.test(l));
  const threads = (await Bun.file(`/proc/${pid}/status`).text()).match(/Threads:\s+(\d+)/)?.[1];
  console.log(`${name}: ${threads} threads; syscalls per request over ${requests} ${stream ? "stream" : "json"} requests`);
  for (const l of lines) {
    const f = l.trim().split(/\s+/);
    const calls = Number(f[3]);
    const errors = f.length === 6 ? Number(f[4]) : 0;
    console.log(`  ${f.at(-1)!.padEnd(16)} ${(calls / requests).toFixed(2).padStart(7)}${errors ? `  (${(errors / requests).toFixed(2)} errors)` : ""}`);
  }
}
await Promise.all([gateway.stop(), floor.stop(), upstream.stop()]);
