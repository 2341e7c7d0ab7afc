// The body of one export, as OTLP/HTTP JSON requires it and as OpenRouter's Broadcast shapes it.
import { expect, test } from "bun:test";
import type { ObservedGeneration } from "../../../../src/observability/contract";
import { exportRequest } from "../../../../src/observability/otlp/export-request";
import { traceIdOf } from "../../../../src/observability/otlp/ids";
import { otelCollectorProfile } from "../../../../src/observability/otlp/profiles/otel-collector";
import { destinationOf, observedGeneration, T0 } from "../fixtures";
import { attributesOf, spanNamed, spansOf } from "./otlp-json";

const destination = destinationOf("otel-collector", { endpoint: "https://collector.example.com/v1/traces" });
const exported = (g: ObservedGeneration, d = destination) => JSON.parse(JSON.stringify(exportRequest(g, d, otelCollectorProfile)));
const nanos = (ms: number) => `${ms}000000`;

test("skeleton: resource service.name, scope, hex ids, integer kinds and statuses, times as decimal nanosecond strings", () => {
  const body = exported(observedGeneration());
  expect(attributesOf(body.resourceSpans[0].resource.attributes)).toEqual({ "service.name": "openrouter" });
  expect(body.resourceSpans[0].scopeSpans[0].scope).toEqual({ name: "openrouter" });
  const spans = spansOf(body);
  expect(spans.map((s) => s.name)).toEqual(["LLM Generation", "provider attempt 1: flaky", "provider attempt 2: mock"]);
  for (const span of spans) {
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(typeof span.kind).toBe("number");
    expect(typeof span.status.code).toBe("number");
    expect(span.startTimeUnixNano).toMatch(/^\d+$/);
    expect(span.endTimeUnixNano).toMatch(/^\d+$/);
    for (const a of span.attributes) if ("intValue" in a.value) expect(typeof a.value.intValue).toBe("string");
  }
  const [root, first, second] = spans as [any, any, any];
  expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
  expect(root.parentSpanId).toBeUndefined();
  expect([root.kind, root.status]).toEqual([3, { code: 1 }]);
  expect([root.startTimeUnixNano, root.endTimeUnixNano]).toEqual([nanos(T0), nanos(T0 + 1500)]);
  expect([first.parentSpanId, second.parentSpanId]).toEqual([root.spanId, root.spanId]);
  expect([first.startTimeUnixNano, first.endTimeUnixNano, first.status]).toEqual([
    nanos(T0 + 10),
    nanos(T0 + 100),
    { code: 2, message: "upstream answered 503" },
  ]);
  expect(attributesOf(first.attributes)).toEqual({
    "span.type": "span",
    "gen_ai.provider.name": "flaky",
    "gen_ai.request.model": "up-chat",
    "openrouter.provider_slug": "flaky",
    "openrouter.endpoint": "flaky/up-chat",
    "openrouter.attempt": 1,
    "openrouter.latency_ms": 90,
    "http.response.status_code": 503,
    "error.type": "503",
  });
  expect(second.status).toEqual({ code: 1 });
});

test("the generation span: semconv and OpenRouter names, usage, costs as doubles, session, user, trace metadata, content as JSON strings", () => {
  const body = exported(observedGeneration({ trace: { trace_name: "checkout", team: "payments", step: 3 } }));
  const root = spanNamed(body, "LLM Generation");
  const attrs = attributesOf(root.attributes);
  expect(attrs).toMatchObject({
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": "mock",
    "gen_ai.system": "mock",
    "gen_ai.request.model": "acme/chat",
    "gen_ai.response.model": "acme/chat",
    "gen_ai.response.id": "gen-1a2b3c",
    "gen_ai.request.stream": true,
    "gen_ai.request.temperature": 0.2,
    "gen_ai.request.max_tokens": 64,
    "gen_ai.request.stop_sequences": ["END"],
    "gen_ai.response.finish_reasons": ["stop"],
    "gen_ai.response.finish_reason": "stop",
    "gen_ai.response.time_to_first_chunk": 0.25,
    "gen_ai.usage.input_tokens": 120,
    "gen_ai.usage.output_tokens": 30,
    "gen_ai.usage.total_tokens": 150,
    "gen_ai.usage.input_tokens.cached": 20,
    "gen_ai.usage.cache_read.input_tokens": 20,
    "gen_ai.usage.output_tokens.reasoning": 5,
    "gen_ai.usage.total_cost": 0.00018,
    "gen_ai.usage.input_cost": 0.00012,
    "gen_ai.usage.output_cost": 0.00006,
    "session.id": "sess-9",
    "gen_ai.conversation.id": "sess-9",
    "user.id": "end-user-7",
    "trace.name": "checkout",
    "trace.metadata.team": "payments",
    "trace.metadata.step": 3,
    "openrouter.provider_name": "Mock Cloud",
    "openrouter.api_key_name": "prod key",
    "openrouter.tools_offered": true,
    "openrouter.tools_called": false,
    "gen_ai.completion": JSON.stringify([{ role: "assistant", content: "4" }]),
    "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "4" }], finish_reason: "stop" }]),
    "gen_ai.input.messages": JSON.stringify([
      { role: "system", parts: [{ type: "text", content: "Be brief." }] },
      { role: "user", parts: [{ type: "text", content: "What is 2+2?" }, { type: "image_url" }] },
    ]),
  });
  expect(JSON.parse(attrs["gen_ai.prompt"] as string)).toEqual(observedGeneration().input!.messages);
  // a cost that happens to be whole stays a double on the wire
  const free = spanNamed(exported(observedGeneration({ cost: { total: 0, input: 0, output: 0 } })), "LLM Generation");
  expect(free.attributes.find((a) => a.key === "gen_ai.usage.total_cost")!.value).toEqual({ doubleValue: 0 });
  // unknown token counts are left out, not sent as zero
  const unknown = attributesOf(
    spanNamed(exported(observedGeneration({ tokens: { prompt: null, completion: null, cached: null, cacheWrite: null, reasoning: null } })), "LLM Generation")
      .attributes,
  );
  expect(Object.keys(unknown).filter((k) => k.startsWith("gen_ai.usage.") && k.includes("tokens"))).toEqual([]);
});

test("trace ids from the request: trace_id and parent_span_id used as given, span_name adds a wrapper between", () => {
  const g = observedGeneration({
    trace: { trace_id: "4bf92f3577b34da6a3ce929d0e0e4736", parent_span_id: "00f067aa0ba902b7", span_name: "agent step", generation_name: "answer" },
  });
  const spans = spansOf(exported(g));
  expect(spans.map((s) => s.name)).toEqual(["agent step", "answer", "provider attempt 1: flaky", "provider attempt 2: mock"]);
  const [wrapper, root] = spans as [any, any];
  expect(wrapper.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
  expect(wrapper.parentSpanId).toBe("00f067aa0ba902b7");
  expect(wrapper.kind).toBe(1);
  expect(root.parentSpanId).toBe(wrapper.spanId);
  expect(traceIdOf(g)).toBe(root.traceId);
});

test("the same generation exports the same ids every time (a retried delivery merges, never doubles)", () => {
  const ids = (body: any) => spansOf(body).map((s) => [s.traceId, s.spanId, s.parentSpanId]);
  expect(ids(exported(observedGeneration()))).toEqual(ids(exported(observedGeneration())));
});

test("embeddings: their own span, operation embeddings, input but no output, no output tokens", () => {
  const g = observedGeneration({
    operation: "embeddings",
    streamed: false,
    finishReason: null,
    timeToFirstTokenMs: null,
    tokens: { prompt: 8, completion: null, cached: null, cacheWrite: null, reasoning: null },
    input: { messages: ["hello"], tools: null, parameters: {} },
    output: null,
    attempts: [],
  });
  const spans = spansOf(exported(g));
  expect(spans.map((s) => s.name)).toEqual(["Embeddings"]);
  const attrs = attributesOf(spans[0]!.attributes);
  expect(attrs["gen_ai.operation.name"]).toBe("embeddings");
  expect(attrs["span.type"]).toBe("embedding");
  expect(attrs["gen_ai.usage.input_tokens"]).toBe(8);
  expect(attrs["gen_ai.usage.total_tokens"]).toBe(8);
  expect(attrs["gen_ai.prompt"]).toBe('["hello"]');
  for (const key of [
    "gen_ai.completion",
    "gen_ai.output.messages",
    "gen_ai.usage.output_tokens",
    "gen_ai.response.finish_reasons",
    "gen_ai.response.time_to_first_chunk",
  ])
    expect(attrs[key]).toBeUndefined();
});

test("video: its own span, content generation with a video output", () => {
  const g = observedGeneration({ operation: "video", streamed: false, timeToFirstTokenMs: null, output: null, input: null, attempts: [] });
  const [root] = spansOf(exported(g));
  expect(root!.name).toBe("Video Generation");
  expect(attributesOf(root!.attributes)).toMatchObject({
    "gen_ai.operation.name": "generate_content",
    "gen_ai.output.type": "video",
    "openrouter.operation": "video",
  });
});

test("errors and cancellations: ERROR with the message; cancelled unset with WARNING level", () => {
  const failed = spanNamed(exported(observedGeneration({ status: "error", errorMessage: "all providers failed" })), "LLM Generation");
  expect(failed.status).toEqual({ code: 2, message: "all providers failed" });
  expect(attributesOf(failed.attributes)["span.level"]).toBe("ERROR");
  const cancelled = spanNamed(exported(observedGeneration({ status: "cancelled", cancelled: true })), "LLM Generation");
  expect(cancelled.status).toEqual({ code: 0, message: "cancelled by the client" });
  expect(attributesOf(cancelled.attributes)["openrouter.cancelled"]).toBe(true);
});

test("privacy mode: no prompt, completion, messages or tool definitions anywhere in the export, tokens and cost still there", () => {
  const text = JSON.stringify(exported(observedGeneration(), destinationOf("otel-collector", { endpoint: "https://c.example.com" }, { privacyMode: true })));
  for (const key of [
    "gen_ai.prompt",
    "gen_ai.completion",
    "gen_ai.input.messages",
    "gen_ai.output.messages",
    "gen_ai.tool.definitions",
    "What is 2+2?",
    "Be brief.",
  ])
    expect(text).not.toContain(key);
  expect(text).toContain("gen_ai.usage.total_cost");
  expect(text).toContain("gen_ai.usage.input_tokens");
});

test("broadcast flags add the opted-in categories of openrouter_generation, nothing without them", () => {
  const none = attributesOf(spanNamed(exported(observedGeneration()), "LLM Generation").attributes);
  expect(none["trace.metadata.openrouter_generation"]).toBeUndefined();
  const d = destinationOf("otel-collector", { endpoint: "https://c.example.com" }, { broadcastGenerationCost: true, broadcastGenerationIdentity: true });
  const attrs = attributesOf(spanNamed(exported(observedGeneration(), d), "LLM Generation").attributes);
  expect(JSON.parse(attrs["trace.metadata.openrouter_generation"] as string)).toEqual({
    total_cost: 0.00018,
    input_cost: 0.00012,
    output_cost: 0.00006,
    is_byok: false,
    tokens_prompt: 120,
    tokens_completion: 30,
    cached_tokens: 20,
    cache_write_tokens: null,
    reasoning_tokens: 5,
    workspace_id: "ws-1",
    api_key_hash: "k".repeat(64),
    api_key_name: "prod key",
    user_id: "user-1",
    external_user: "end-user-7",
  });
});
