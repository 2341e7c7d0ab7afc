// Service metadata on request (X-Service-Experimental-Metadata / X-OpenRouter-Metadata) on
// JSON results and the final stream event, and GET /api/v1/generation with every field of
// OpenRouter's GenerationResponseData for the key that made it and for a management key.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createInferenceKey } from "../../support/gateway";
import { sseJson } from "../../support/sse";
import {
  expectedCost,
  fetchGeneration,
  type Harness,
  INBOUNDS,
  type Inbound,
  MODEL,
  minimalBody,
  PROVIDER,
  post,
  startHarness,
  UPSTREAMS,
  type UpstreamKind,
} from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

function expectServiceMetadata(meta: any, upstream: UpstreamKind, id: string) {
  expect(meta).toEqual({
    requested: MODEL[upstream],
    model: MODEL[upstream],
    provider: PROVIDER[upstream],
    generation_id: id,
    is_byok: false,
    attempts: [{ model: MODEL[upstream], provider: PROVIDER[upstream], status: 200, latency: expect.any(Number) }],
  });
}

/** Where each format carries service_metadata: the JSON body, or the stream's final event / chunk. */
function metadataOf(inbound: Inbound, stream: boolean, body: string): any {
  if (!stream) {
    const json = JSON.parse(body);
    return json.service_metadata;
  }
  const events = sseJson(body);
  if (inbound === "chat") {
    const carrying = events.filter((c) => c.service_metadata);
    expect(carrying.length).toBe(1);
    expect(carrying[0]).toBe(events.at(-1));
    return carrying[0].service_metadata;
  }
  if (inbound === "responses") {
    const completed = events.at(-1);
    expect(completed.type).toBe("response.completed");
    expect(events.slice(0, -1).some((e) => e.response?.service_metadata)).toBe(false);
    return completed.response.service_metadata;
  }
  const stop = events.at(-1);
  expect(stop.type).toBe("message_stop");
  return stop.service_metadata;
}

describe("service metadata when asked for", () => {
  for (const header of ["x-service-experimental-metadata", "x-openrouter-metadata"]) {
    for (const inbound of INBOUNDS) {
      for (const stream of [false, true]) {
        test(`${header}: ${inbound} ${stream ? "stream" : "json"}`, async () => {
          for (const upstream of UPSTREAMS) {
            h.up.enqueue({ text: "ok" });
            const res = await post(h, inbound, minimalBody(inbound, MODEL[upstream], stream ? { stream: true } : {}), { [header]: "enabled" });
            expect(res.status).toBe(200);
            expectServiceMetadata(metadataOf(inbound, stream, await res.text()), upstream, res.headers.get("x-generation-id")!);
          }
        });
      }
    }
  }

  test("absent without the header", async () => {
    for (const inbound of INBOUNDS) {
      h.up.enqueue({ text: "ok" }, { text: "ok" });
      const json = await post(h, inbound, minimalBody(inbound, MODEL["openai-chat"]));
      expect(await json.text()).not.toContain("service_metadata");
      const sse = await post(h, inbound, minimalBody(inbound, MODEL["openai-chat"], { stream: true }));
      expect(await sse.text()).not.toContain("service_metadata");
    }
  });
});

const GENERATION_FIELDS = [
  "id",
  "upstream_id",
  "created_at",
  "model",
  "api_type",
  "provider_name",
  "provider_responses",
  "router",
  "origin",
  "http_referer",
  "app_id",
  "external_user",
  "user_agent",
  "preset_id",
  "workspace_id",
  "data_region",
  "is_byok",
  "streamed",
  "cancelled",
  "finish_reason",
  "native_finish_reason",
  "latency",
  "generation_time",
  "moderation_latency",
  "tokens_prompt",
  "tokens_completion",
  "native_tokens_prompt",
  "native_tokens_completion",
  "native_tokens_completion_images",
  "native_tokens_reasoning",
  "native_tokens_cached",
  "num_media_prompt",
  "num_media_completion",
  "num_input_audio_prompt",
  "num_search_results",
  "num_fetches",
  "total_cost",
  "usage",
  "upstream_inference_cost",
  "cache_discount",
  "service_tier",
  "web_search_engine",
];

const NATIVE_STOP: Record<UpstreamKind, string> = {
  "openai-chat": "stop",
  "openai-responses": "completed",
  "anthropic-messages": "end_turn",
  "azure-openai": "stop",
  bedrock: "end_turn",
  gemini: "STOP",
  "vertex-gemini": "STOP",
  "vertex-claude": "end_turn",
};

describe("GET /api/v1/generation", () => {
  for (const inbound of INBOUNDS) {
    for (const stream of [false, true]) {
      test(`${inbound} ${stream ? "stream" : "json"}: every field, for the key and the admin; 404 for another key`, async () => {
        const upstream: UpstreamKind = inbound === "chat" ? "anthropic-messages" : inbound === "responses" ? "openai-chat" : "openai-responses";
        const usage = { input: 120, output: 30, cached: 20, cacheWrite: 10, reasoning: 5 };
        h.up.enqueue({ id: "up-123", text: ["Hi", " there"], usage });
        const extra = { stream, user: "end-user-7", session_id: "sess-42" };
        const headers = { "http-referer": "https://app.example.com/", "x-title": "Example App", "user-agent": "golden-test/1.0" };
        const res = await post(h, inbound, minimalBody(inbound, MODEL[upstream], extra), headers);
        expect(res.status).toBe(200);
        await res.text();
        const id = res.headers.get("x-generation-id")!;

        const gen = await fetchGeneration(h, id);
        for (const field of GENERATION_FIELDS) expect(gen).toHaveProperty(field);
        expect(gen).toMatchObject({
          id,
          upstream_id: "up-123",
          model: MODEL[upstream],
          api_type: "completions",
          provider_name: PROVIDER[upstream],
          origin: "Example App",
          http_referer: "https://app.example.com/",
          external_user: "end-user-7",
          user_agent: "golden-test/1.0",
          session_id: "sess-42",
          data_region: "global",
          is_byok: false,
          streamed: stream,
          cancelled: false,
          finish_reason: "stop",
          native_finish_reason: NATIVE_STOP[upstream],
          tokens_prompt: 120,
          tokens_completion: 30,
          native_tokens_prompt: 120,
          native_tokens_completion: 30,
          native_tokens_cached: 20,
          native_tokens_reasoning: upstream === "anthropic-messages" ? 0 : 5,
          total_cost: expectedCost(usage),
          usage: expectedCost(usage),
          upstream_inference_cost: null,
          usage_estimated: false,
        });
        expect(gen.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(gen.workspace_id).toMatch(/^[0-9a-f-]{36}$/);
        expect(typeof gen.latency).toBe("number");
        expect(gen.provider_responses).toEqual([
          {
            status: 200,
            endpoint_id: expect.any(String),
            model_permaslug: MODEL[upstream],
            provider_name: PROVIDER[upstream],
            latency: expect.any(Number),
            is_byok: false,
          },
        ]);
        if (stream) expect(typeof gen.time_to_first_token).toBe("number");

        expect(await fetchGeneration(h, id, h.gw.adminKey)).toEqual(gen);
        const other = await createInferenceKey(h.gw, { name: "someone else" });
        const denied = await h.gw.api(`/api/v1/generation?id=${id}`, { key: other.key });
        expect(denied.status).toBe(404);
        expect(((await denied.json()) as any).error.code).toBe(404);
      });
    }
  }

  test("unknown id: 404; missing id: 400", async () => {
    expect((await h.gw.api("/api/v1/generation?id=gen-nope", { key: h.key })).status).toBe(404);
    expect((await h.gw.api("/api/v1/generation", { key: h.key })).status).toBe(400);
  });
});
