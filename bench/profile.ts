// Where the gateway's CPU goes per request: runs one gateway child per mode under
// `bun --cpu-prof`, drives it like overhead.ts does, and buckets the profile
// samples taken during the measured phase by concern. See bench/README.md.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnChild } from "./lib/child";
import { envInt } from "./lib/env";
import { type RequestSpec, runBatch } from "./lib/load";
import { AZURE_MODEL, chatBody, newPromptBody, SAME_FORMAT_MODEL, TRANSLATED_MODEL } from "./lib/models";
import { type CpuProfile, categorize } from "./lib/profile-categories";

const REQUESTS = envInt("BENCH_REQUESTS", 2000);
const WARMUP = envInt("BENCH_WARMUP", 300);
const CONCURRENCY = envInt("BENCH_CONCURRENCY", 16);
const INTERVAL_US = envInt("BENCH_PROFILE_INTERVAL_US", 250);
/** BENCH_PROFILE_CACHE=1: the response cache's cases instead (json, same format, cache on): a hit, and a miss (a new prompt each time) */
const CACHE = process.env.BENCH_PROFILE_CACHE === "1";
type Case = { label: string; model: string; stream: boolean; cache?: "hit" | "miss" };
const CASES: Case[] = CACHE
  ? [
      { label: "cache hit", model: SAME_FORMAT_MODEL, stream: false, cache: "hit" },
      { label: "cache miss", model: SAME_FORMAT_MODEL, stream: false, cache: "miss" },
    ]
  : (
      [
        ["same-format", SAME_FORMAT_MODEL],
        ["translated", TRANSLATED_MODEL],
        ["azure-openai", AZURE_MODEL],
      ] as const
    ).flatMap(([label, model]) => [false, true].map((stream) => ({ label: `${label} ${stream ? "stream" : "json"}`, model, stream })));

const here = import.meta.dir;
const upstream = await spawnChild<{ url: string }>(join(here, "upstream.entry.ts"));
try {
  for (const { label, model, stream, cache } of CASES) {
    const dir = mkdtempSync(join(tmpdir(), "gw-prof-"));
    const gateway = await spawnChild<{ url: string; key: string }>(
      join(here, "gateway.entry.ts"),
      { BENCH_UPSTREAM_URL: upstream.info.url, ...(cache ? { BENCH_RESPONSE_CACHE: "1" } : {}) },
      ["--cpu-prof", `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${INTERVAL_US}`],
    );
    const spec: RequestSpec = {
      url: `${gateway.info.url}/api/v1/chat/completions`,
      headers: { "content-type": "application/json", authorization: `Bearer ${gateway.info.key}`, ...(cache ? { "x-gateway-cache": "on" } : {}) },
      body: cache === "miss" ? newPromptBody("miss") : chatBody(model, stream),
      stream,
    };
    await runBatch(spec, WARMUP, CONCURRENCY);
    const cpu0 = await gateway.cpu();
    const from = Date.now() * 1000;
    await runBatch(spec, REQUESTS, CONCURRENCY);
    const to = Date.now() * 1000;
    const cpu1 = await gateway.cpu();
    await gateway.stop();
    const profileFile = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
    if (!profileFile) throw new Error(`no .cpuprofile written in ${dir}`);
    const profile = JSON.parse(readFileSync(join(dir, profileFile), "utf8")) as CpuProfile;
    rmSync(dir, { recursive: true, force: true });

    const b = categorize(profile, from, to, INTERVAL_US);
    const processUs = (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / REQUESTS;
    const systemUs = (cpu1.system - cpu0.system) / REQUESTS;
    console.log(
      `\ngateway ${label}: process CPU ${processUs.toFixed(0)} µs/req, ${systemUs.toFixed(0)} of it in the kernel ` +
        `(all threads, profiler on); ` +
        `JS thread sampled ${(b.totalUs / REQUESTS).toFixed(0)} µs/req (${b.samples} samples)`,
    );
    for (const row of b.rows) {
      console.log(`  ${(row.us / REQUESTS).toFixed(1).padStart(7)} µs  ${((100 * row.us) / b.totalUs).toFixed(1).padStart(5)}%  ${row.category}`);
      if (row.us / b.totalUs < 0.05) continue;
      for (const [kind, us] of [...row.leaves].sort((x, y) => y[1] - x[1]).slice(0, process.env.BENCH_PROFILE_LEAVES ? 12 : 99)) {
        if (kind !== "rest") console.log(`  ${"".padStart(7)}     ${(us / REQUESTS).toFixed(1).padStart(7)} µs  of which ${kind}`);
      }
    }
  }
} finally {
  await upstream.stop();
}
