// Child process: the real gateway (auth, routing, translation, accounting on),
// with two providers on the same mock: one speaking openai-chat (same-format
// path) and one speaking anthropic-messages (translated path).
import { createInferenceKey, startTestGateway } from "../test/support/gateway";
import { announceReady, onTerminate } from "./lib/child";
import { SAME_FORMAT_MODEL, TRANSLATED_MODEL } from "./lib/models";

const upstreamUrl = process.env.BENCH_UPSTREAM_URL;
if (!upstreamUrl) throw new Error("BENCH_UPSTREAM_URL is required");

const pricing = `{ prompt: "0.000001", completion: "0.000002" }`;
const yaml = `providers:
  - { slug: mock-chat, api: openai-chat, base_url: "${upstreamUrl}", api_key: bench-key }
  - { slug: mock-anthropic, api: anthropic-messages, base_url: "${upstreamUrl}", api_key: bench-key }
models:
  - id: ${SAME_FORMAT_MODEL}
    endpoints: [{ provider: mock-chat, model: m-chat, pricing: ${pricing} }]
  - id: ${TRANSLATED_MODEL}
    endpoints: [{ provider: mock-anthropic, model: m-anthropic, pricing: ${pricing} }]
`;

const gw = await startTestGateway({ yaml });
const { key } = await createInferenceKey(gw, { name: "bench" });
onTerminate(() => gw.close());
announceReady({ url: gw.url, key });
