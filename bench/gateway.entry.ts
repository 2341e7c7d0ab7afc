// Child process: the real gateway (auth, routing, translation, accounting on),
// with five providers on the same mock: one speaking openai-chat (same-format
// path), one anthropic-messages and one gemini (translated paths), one azure-openai and one
// Bedrock's Converse (signed).
// BENCH_DATABASE_URL (a PostgreSQL server) and BENCH_REDIS_URL run it as one instance of a
// scale-out deployment (a database of its own, dropped at the end). The bench key has a spending
// limit of BENCH_KEY_LIMIT USD (default 1000; 0 or "off": none), so every request also reserves
// and settles. BENCH_GATEWAY_IDLE=1 starts a gateway with the default catalog only (no bench
// providers, no key, no request), for the idle-memory figure. BENCH_RESPONSE_CACHE=1 turns the
// response cache on (default off: X-Gateway-Cache chooses per request); its control server's
// /cache/on and /cache/off then switch it as a reload (SIGHUP) does, so a miss and the same
// request with the cache disabled are measured in one process (one JIT, one heap).
import { SQL } from "bun";
import { releaseStartupMemorySoon } from "../src/process-limits/startup-memory";
import { createInferenceKey, startTestGateway } from "../test/support/gateway";
import { MOCK_AWS } from "../test/support/mock-upstream/bedrock-auth";
import { announceReady, onTerminate } from "./lib/child";
import { AZURE_MODEL, BEDROCK_MODEL, GEMINI_MODEL, SAME_FORMAT_MODEL, TRANSLATED_MODEL } from "./lib/models";

const upstreamUrl = process.env.BENCH_UPSTREAM_URL;
if (!upstreamUrl) throw new Error("BENCH_UPSTREAM_URL is required");

const pricing = `{ prompt: "0.000001", completion: "0.000002" }`;
const yaml = `providers:
  - { slug: mock-chat, api: openai-chat, base_url: "${upstreamUrl}", api_key: bench-key }
  - { slug: mock-anthropic, api: anthropic-messages, base_url: "${upstreamUrl}", api_key: bench-key }
  - { slug: mock-azure, api: azure-openai, base_url: "${new URL(upstreamUrl).origin}", api_key: bench-key }
  - { slug: mock-bedrock, api: bedrock, base_url: "${upstreamUrl}", aws: { region: ${MOCK_AWS.region}, access_key_id: ${MOCK_AWS.keys.plain.accessKeyId}, secret_access_key: "${MOCK_AWS.keys.plain.secretAccessKey}" } }
  - { slug: mock-gemini, api: gemini, base_url: "${upstreamUrl}", api_key: bench-key }
models:
  - id: ${SAME_FORMAT_MODEL}
    endpoints: [{ provider: mock-chat, model: m-chat, pricing: ${pricing} }]
  - id: ${TRANSLATED_MODEL}
    endpoints: [{ provider: mock-anthropic, model: m-anthropic, pricing: ${pricing} }]
  - id: ${AZURE_MODEL}
    endpoints: [{ provider: mock-azure, model: m-azure, pricing: ${pricing} }]
  - id: ${BEDROCK_MODEL}
    endpoints: [{ provider: mock-bedrock, model: "anthropic.m-bedrock-v1:0", pricing: ${pricing} }]
  - id: ${GEMINI_MODEL}
    endpoints: [{ provider: mock-gemini, model: gemini-2.5-flash, pricing: ${pricing} }]
${process.env.BENCH_RESPONSE_CACHE === "1" ? "response_cache: { enabled: true, default: off }\n" : ""}`;

async function scaleOutEnv(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const server = process.env.BENCH_DATABASE_URL;
  if (!server) return { env: {}, drop: async () => {} };
  const name = `gw_bench_${process.pid}`;
  const admin = new SQL(server, { max: 1 });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const env: Record<string, string> = { DATABASE_URL: url.toString(), GATEWAY_SECRET_KEY: "b".repeat(64) };
  if (process.env.BENCH_REDIS_URL) Object.assign(env, { REDIS_URL: process.env.BENCH_REDIS_URL, REDIS_PREFIX: `gw-bench:${process.pid}:` });
  return {
    env,
    async drop() {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.close();
    },
  };
}

/** USD limit of the bench key; undefined = no limit. */
function keyLimit(): number | undefined {
  const raw = (process.env.BENCH_KEY_LIMIT ?? "1000").trim().toLowerCase();
  const usd = Number(raw);
  return raw === "" || raw === "off" || !Number.isFinite(usd) || usd <= 0 ? undefined : usd;
}

const idle = process.env.BENCH_GATEWAY_IDLE === "1";
const scaleOut = await scaleOutEnv();
// BENCH_WORKERS: job worker threads, as `WORKERS` (the test helper's default is none)
const env = { GATEWAY_DEFAULT_CATALOG: "true", ...scaleOut.env, ...(process.env.BENCH_WORKERS ? { WORKERS: process.env.BENCH_WORKERS } : {}) };
const gw = await startTestGateway(idle ? { env } : { yaml, env });
// as `serve` does once it listens (src/cli/run.ts)
releaseStartupMemorySoon();
onTerminate(async () => {
  await gw.close();
  await scaleOut.drop();
});
if (idle) {
  announceReady({ url: gw.url });
} else {
  const limit = keyLimit();
  const { key } = await createInferenceKey(gw, { name: "bench", ...(limit ? { limit } : {}) });
  const cacheSwitch = (enabled: boolean) => () => gw.reload(() => ({ ...gw.ctx.config, responseCache: { ...gw.ctx.config.responseCache, enabled } }));
  const cacheRoutes: Record<string, () => unknown> =
    process.env.BENCH_RESPONSE_CACHE === "1" ? { "/cache/on": cacheSwitch(true), "/cache/off": cacheSwitch(false) } : {};
  announceReady({ url: gw.url, key, limit: limit ?? null }, cacheRoutes);
}
