// One real gateway (port 0, temp SQLite) in front of one mock upstream that speaks every
// upstream API, plus the real SDK clients pointed at the gateway. Each test file starts
// its own harness in beforeAll so files stay independent and can run in parallel.

import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { createInferenceKey, startTestGateway, type TestGateway, tempDir } from "../../support/gateway";
import { type MockUpstream, type RecordedRequest, startMockUpstream } from "../../support/mock-upstream";
import { MOCK_AWS } from "../../support/mock-upstream/bedrock-auth";
import { makeServiceAccount } from "../../support/service-account";

export type Inbound = "chat" | "responses" | "messages";
/** An upstream API, and for Vertex AI the model family (its Gemini and Claude models speak different bodies). */
export type UpstreamKind =
  | "openai-chat"
  | "openai-responses"
  | "anthropic-messages"
  | "azure-openai"
  | "bedrock"
  | "gemini"
  | "vertex-gemini"
  | "vertex-claude";
/** The body formats upstream APIs speak */
export type Wire = "openai-chat" | "openai-responses" | "anthropic-messages" | "bedrock" | "gemini";

export const INBOUNDS: Inbound[] = ["chat", "responses", "messages"];
export const UPSTREAMS: UpstreamKind[] = [
  "openai-chat",
  "openai-responses",
  "anthropic-messages",
  "azure-openai",
  "bedrock",
  "gemini",
  "vertex-gemini",
  "vertex-claude",
];

/** The upstream APIs that show the client reasoning text (Azure's Chat Completions return only its token count). */
export const REASONING_UPSTREAMS: UpstreamKind[] = UPSTREAMS.filter((u) => u !== "azure-openai");

/** The body format each upstream kind speaks: what its requests are checked against. */
export const WIRE: Record<UpstreamKind, Wire> = {
  "openai-chat": "openai-chat",
  "openai-responses": "openai-responses",
  "anthropic-messages": "anthropic-messages",
  "azure-openai": "openai-chat",
  bedrock: "bedrock",
  gemini: "gemini",
  "vertex-gemini": "gemini",
  "vertex-claude": "anthropic-messages",
};

/** The api-version the harness's Azure provider is configured with (not the default, so the config is seen to reach the URL). */
export const AZURE_API_VERSION = "2024-12-01-preview";

/** Catalog id the client asks for, and the model id the upstream receives (an Azure deployment), per upstream kind. */
export const MODEL: Record<UpstreamKind, string> = {
  "openai-chat": "t/chat",
  "openai-responses": "t/resp",
  "anthropic-messages": "t/anth",
  "azure-openai": "t/azure",
  bedrock: "t/bedrock",
  gemini: "t/gem",
  "vertex-gemini": "t/vgem",
  "vertex-claude": "t/vclaude",
};
/** Bedrock's model is in the URL, a versioned id whose colon the path escapes */
export const UPSTREAM_MODEL: Record<UpstreamKind, string> = {
  "openai-chat": "up-chat",
  "openai-responses": "up-resp",
  "anthropic-messages": "up-anth",
  "azure-openai": "up-azure",
  bedrock: "anthropic.claude-sonnet-4-20250514-v1:0",
  gemini: "gemini-3-flash-preview",
  "vertex-gemini": "gemini-2.5-pro",
  "vertex-claude": "claude-sonnet-4-5@20250929",
};
/** The Vertex provider's project and location, as its URLs show them. */
export const VERTEX_PLACE = "/v1/projects/harness-project/locations/us-east5/publishers";

/** The path an upstream kind is called at; Bedrock streams from a path of its own, Google's APIs put the model and the stream switch in it. */
export function upstreamPath(kind: UpstreamKind, stream: boolean): string {
  switch (kind) {
    case "openai-chat":
      return "/v1/chat/completions";
    case "openai-responses":
      return "/v1/responses";
    case "anthropic-messages":
      return "/v1/messages";
    case "azure-openai":
      return `/openai/deployments/up-azure/chat/completions?api-version=${AZURE_API_VERSION}`;
    case "bedrock":
      return `/v1/model/anthropic.claude-sonnet-4-20250514-v1%3A0/${stream ? "converse-stream" : "converse"}`;
    case "gemini":
      return `/v1/models/${UPSTREAM_MODEL.gemini}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`;
    case "vertex-gemini":
      return `${VERTEX_PLACE}/google/models/${UPSTREAM_MODEL["vertex-gemini"]}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`;
    case "vertex-claude":
      return `${VERTEX_PLACE}/anthropic/models/${UPSTREAM_MODEL["vertex-claude"]}:${stream ? "streamRawPredict" : "rawPredict"}`;
  }
}
/** One translated pair per inbound format: each client with an upstream of another format. */
export const TRANSLATED_PAIRS: ReadonlyArray<[Inbound, UpstreamKind]> = [
  ["chat", "anthropic-messages"],
  ["responses", "openai-chat"],
  ["messages", "openai-responses"],
];
export const PROVIDER: Record<UpstreamKind, string> = {
  "openai-chat": "oc",
  "openai-responses": "orr",
  "anthropic-messages": "an",
  "azure-openai": "az",
  bedrock: "aws",
  gemini: "gm",
  "vertex-gemini": "vx",
  "vertex-claude": "vx",
};

/** Prices per token in nano-dollars (the yaml below says the same in USD). */
export const PRICE_NANOS = { prompt: 1000, completion: 2000, cacheRead: 100, cacheWrite: 1250 };

/** Hand-computed cost in USD: uncached prompt + cache reads + cache writes + completion. */
export function expectedCost(u: { input: number; output: number; cached?: number; cacheWrite?: number }): number {
  const cached = u.cached ?? 0;
  const writes = u.cacheWrite ?? 0;
  const nanos =
    (u.input - cached - writes) * PRICE_NANOS.prompt + cached * PRICE_NANOS.cacheRead + writes * PRICE_NANOS.cacheWrite + u.output * PRICE_NANOS.completion;
  return nanos / 1e9;
}

const PRICING = `{ prompt: "0.000001", completion: "0.000002", input_cache_read: "0.0000001", input_cache_write: "0.00000125" }`;

/** `vertexKeyFile`: the service-account key file the Vertex provider calls with (without one it serves BYOK only). */
export function gatewayYaml(upstreamUrl: string, vertexKeyFile?: string): string {
  const vertexKey = vertexKeyFile ? `, credentials_file: "${vertexKeyFile}"` : "";
  // private URLs allowed: an image URL the gateway fetches for Bedrock is the mock's, on loopback
  return `
security: { allow_private_urls: true }
providers:
  - { slug: oc, api: openai-chat, base_url: "${upstreamUrl}", api_key: k1 }
  - { slug: orr, api: openai-responses, base_url: "${upstreamUrl}", api_key: k2 }
  - { slug: an, api: anthropic-messages, base_url: "${upstreamUrl}", api_key: k3 }
  - { slug: az, api: azure-openai, base_url: "${new URL(upstreamUrl).origin}", api_key: k4, azure: { api_version: "${AZURE_API_VERSION}" } }
  - slug: aws
    api: bedrock
    base_url: "${upstreamUrl}"
    aws: { region: ${MOCK_AWS.region}, access_key_id: ${MOCK_AWS.keys.plain.accessKeyId}, secret_access_key: "${MOCK_AWS.keys.plain.secretAccessKey}" }
  - { slug: gm, api: gemini, base_url: "${upstreamUrl}", api_key: k4-gemini }
  - { slug: vx, api: vertex, base_url: "${upstreamUrl}", vertex: { project: harness-project, location: us-east5${vertexKey} } }
models:
  - id: t/chat
    input_modalities: [text, image]
    endpoints: [{ provider: oc, model: up-chat, pricing: ${PRICING} }]
  - id: t/resp
    input_modalities: [text, image]
    endpoints: [{ provider: orr, model: up-resp, pricing: ${PRICING} }]
  - id: t/anth
    input_modalities: [text, image]
    endpoints: [{ provider: an, model: up-anth, pricing: ${PRICING}, max_completion_tokens: 8192 }]
  - id: t/azure
    input_modalities: [text, image]
    endpoints: [{ provider: az, model: up-azure, pricing: ${PRICING} }]
  - id: t/bedrock
    input_modalities: [text, image]
    endpoints: [{ provider: aws, model: "anthropic.claude-sonnet-4-20250514-v1:0", pricing: ${PRICING} }]
  - id: t/gem
    input_modalities: [text, image]
    endpoints: [{ provider: gm, model: ${UPSTREAM_MODEL.gemini}, pricing: ${PRICING} }]
  - id: t/vgem
    input_modalities: [text, image]
    endpoints: [{ provider: vx, model: ${UPSTREAM_MODEL["vertex-gemini"]}, pricing: ${PRICING} }]
  - id: t/vclaude
    input_modalities: [text, image]
    endpoints: [{ provider: vx, model: "${UPSTREAM_MODEL["vertex-claude"]}", pricing: ${PRICING}, max_completion_tokens: 8192 }]
`;
}

export type Harness = {
  up: MockUpstream;
  gw: TestGateway;
  key: string;
  openai: OpenAI;
  anthropic: Anthropic;
  /** the upstream request made by the most recent gateway call */
  lastRequest(): RecordedRequest;
  close(): Promise<void>;
};

export async function startHarness(): Promise<Harness> {
  const up = await startMockUpstream();
  const vertexAccount = await makeServiceAccount({ tokenUri: up.google.tokenUri, projectId: "harness-sa-project" });
  up.google.trust(vertexAccount);
  const keyFile = join(tempDir("gw-vertex-"), "service-account.json");
  await Bun.write(keyFile, vertexAccount.json);
  const gw = await startTestGateway({ yaml: gatewayYaml(up.url, keyFile) });
  const { key } = await createInferenceKey(gw, { name: "e2e inference" });
  const close = async () => {
    await gw.close();
    await up.stop();
  };
  const openai = new OpenAI({ apiKey: key, baseURL: `${gw.url}/api/v1`, maxRetries: 0 });
  const anthropic = new Anthropic({ apiKey: key, baseURL: `${gw.url}/api`, maxRetries: 0 });
  return {
    up,
    gw,
    key,
    openai,
    anthropic,
    lastRequest() {
      const last = up.requests.at(-1);
      if (!last) throw new Error("the upstream received no request");
      return last;
    },
    close,
  };
}

/** Inbound endpoint path under the gateway, per inbound format. */
export const INBOUND_PATH: Record<Inbound, string> = { chat: "/api/v1/chat/completions", responses: "/api/v1/responses", messages: "/api/v1/messages" };

/** POSTs a JSON body to an inbound endpoint with the harness key. */
export function post(h: Harness, inbound: Inbound, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return h.gw.api(INBOUND_PATH[inbound], { method: "POST", key: h.key, json: body, headers, signal });
}

/** A minimal valid body for each inbound format. */
export function minimalBody(inbound: Inbound, model: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  if (inbound === "chat") return { model, messages: [{ role: "user", content: "hi" }], ...extra };
  if (inbound === "responses") return { model, input: "hi", ...extra };
  return { model, max_tokens: 100, messages: [{ role: "user", content: "hi" }], ...extra };
}

/** Reads GET /api/v1/generation for an id, retrying briefly: streams are recorded just after they end. */
export async function fetchGeneration(h: Harness, id: string, key: string = h.key): Promise<any> {
  for (let i = 0; i < 50; i++) {
    const res = await h.gw.api(`/api/v1/generation?id=${encodeURIComponent(id)}`, { key });
    if (res.status === 200) return ((await res.json()) as any).data;
    await Bun.sleep(20);
  }
  throw new Error(`generation ${id} was not recorded`);
}
