/** PostHog LLM analytics against a loopback capture API: the /batch/ envelope, $ai_* properties, 413 halving. */
import { afterAll, beforeEach, expect, test } from "bun:test";
import { isTooLarge, sendSplitting } from "../../../src/observability/halving-batches";
import { classifyResponse, postJson } from "../../../src/observability/native/post-json";
import { posthogSender } from "../../../src/observability/native/posthog";
import { jsonAnswer, type RecordedRequest, startNativeRecorder, statusAnswer } from "../../support/native-recorder";
import { loopbackDeps, TEST_NOW } from "../../support/native-sender-deps";
import { chatGeneration, destinationOf, embeddingGeneration, failedGeneration, videoGeneration } from "../../support/observed-generation";

const capture = startNativeRecorder();
afterAll(() => capture.stop());
beforeEach(() => {
  capture.reset();
  capture.setDefault(jsonAnswer(200, { status: 1 }));
});

const destination = destinationOf("posthog", { apiKey: "phc_test", endpoint: capture.url });
type Event = { event: string; distinct_id: string; uuid: string; timestamp: string; properties: Record<string, any> };
const batch = (request: RecordedRequest) => (request.json as { api_key: string; batch: Event[]; sent_at: string }).batch;

test("one /batch/ POST with api_key, the events and sent_at", async () => {
  expect(await posthogSender.send(chatGeneration(), destination, loopbackDeps())).toEqual({ kind: "delivered" });
  const request = capture.requests[0]!;
  expect(request.method).toBe("POST");
  expect(request.path).toBe("/batch/");
  expect(request.json).toMatchObject({ api_key: "phc_test", sent_at: new Date(TEST_NOW).toISOString() });
  // the generation, and the trace the caller named
  expect(batch(request).map((e) => e.event)).toEqual(["$ai_generation", "$ai_trace"]);
});

test("$ai_generation carries the $ai_* properties PostHog reads, with the right types", async () => {
  await posthogSender.send(chatGeneration(), destination, loopbackDeps());
  const [generation, trace] = batch(capture.requests[0]!);
  expect(generation!.distinct_id).toBe("end-user-7");
  expect(generation!.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(generation!.properties).toMatchObject({
    $ai_trace_id: "caller-trace-1",
    $ai_session_id: "session-42",
    $ai_span_name: "answer",
    $ai_parent_id: "caller-trace-1",
    $ai_model: "acme/alpha",
    $ai_provider: "acme-cloud",
    $ai_input_tokens: 120,
    $ai_output_tokens: 45,
    $ai_cache_read_input_tokens: 20,
    $ai_reasoning_tokens: 5,
    $ai_input_cost_usd: 0.00012,
    $ai_output_cost_usd: 0.0003,
    $ai_total_cost_usd: 0.00042,
    $ai_latency: 1.5,
    $ai_time_to_first_token: 0.32,
    $ai_stream: true,
    $ai_http_status: 200,
    $ai_is_error: false,
    $ai_stop_reason: "stop",
    $ai_model_parameters: { temperature: 0.2, max_tokens: 256 },
    $ai_lib: "model-gateway",
    customer_tier: "gold",
  });
  expect(generation!.properties.$ai_input).toHaveLength(2);
  expect(generation!.properties.$ai_output_choices[0].role).toBe("assistant");
  expect(generation!.properties.$ai_tools).toHaveLength(1);
  // unknown is left out, not null
  expect("$ai_cache_creation_input_tokens" in generation!.properties).toBe(false);
  expect(trace!.properties).toMatchObject({ $ai_trace_id: "caller-trace-1", $ai_trace_name: "Support bot" });
});

test("without a user the trace is the distinct id and no person profile is made", async () => {
  await posthogSender.send(chatGeneration({ externalUser: null, trace: null }), destination, loopbackDeps());
  const [generation] = batch(capture.requests[0]!);
  expect(generation!.distinct_id).toMatch(/^[0-9a-f]{32}$/);
  expect(generation!.properties.$ai_trace_id).toBe(generation!.distinct_id);
  expect(generation!.properties.$process_person_profile).toBe(false);
});

test("embeddings are $ai_embedding; a span_name wrapper is an $ai_span parent; failures carry $ai_error", async () => {
  await posthogSender.send(embeddingGeneration(), destination, loopbackDeps());
  expect(batch(capture.requests[0]!).map((e) => e.event)).toEqual(["$ai_embedding"]);
  await posthogSender.send(videoGeneration(), destination, loopbackDeps());
  const [video, span] = batch(capture.requests[1]!);
  expect(span!.event).toBe("$ai_span");
  expect(video!.properties.$ai_parent_id).toBe(span!.properties.$ai_span_id);
  await posthogSender.send(failedGeneration(), destination, loopbackDeps());
  expect(batch(capture.requests[2]!)[0]!.properties).toMatchObject({ $ai_is_error: true, $ai_error: "all providers failed", $ai_http_status: 503 });
});

test("413 halves the batch and sends each half", async () => {
  capture.enqueue(statusAnswer(413));
  expect(await posthogSender.send(chatGeneration(), destination, loopbackDeps())).toEqual({ kind: "delivered" });
  expect(capture.requests.map((r) => batch(r).length)).toEqual([2, 1, 1]);
  expect(capture.requests.slice(1).flatMap((r) => batch(r).map((e) => e.uuid))).toEqual(batch(capture.requests[0]!).map((e) => e.uuid));
});

test("a drain's generations go in one /batch/ request, events in order; each generation's outcome is its own", async () => {
  const first = chatGeneration({ id: "gen-first" });
  const second = embeddingGeneration({ id: "gen-second" });
  expect(await posthogSender.sendMany!([first, second], destination, loopbackDeps())).toEqual([{ kind: "delivered" }, { kind: "delivered" }]);
  expect(capture.requests).toHaveLength(1);
  const sent = batch(capture.requests[0]!);
  expect(sent.map((e) => e.event)).toEqual(["$ai_generation", "$ai_trace", "$ai_embedding"]);
  capture.reset();
  // the chat's events are too large: halved between generations (never within one), the chat fails alone and the embedding goes through
  const tooLarge = sent[0]!.uuid;
  capture.setDefault((request) => (batch(request).some((e) => e.uuid === tooLarge) ? statusAnswer(413) : statusAnswer(200)));
  expect(await posthogSender.sendMany!([first, second], destination, loopbackDeps())).toEqual([
    { kind: "failed", reason: "destination answered 413: one event is larger than it accepts" },
    { kind: "delivered" },
  ]);
  expect(capture.requests.map((r) => batch(r).map((e) => e.event))).toEqual([
    ["$ai_generation", "$ai_trace", "$ai_embedding"],
    ["$ai_generation", "$ai_trace"],
    ["$ai_embedding"],
  ]);
});

/** one request for all items, halved on a 413 (PostHog's rule) */
const sendHalvingOn413 = <T>(
  items: readonly T[],
  post: (batch: readonly T[]) => ReturnType<typeof postJson>,
  classify: (result: Awaited<ReturnType<typeof postJson>>) => ReturnType<typeof classifyResponse>,
) => sendSplitting(items, [{ start: 0, end: items.length }], post, classify, isTooLarge);

test("halving is generic: 5 items under a 413 for anything over 2 go out as 2+1+2", async () => {
  capture.setDefault((request) => ((request.json as { batch: unknown[] }).batch.length > 2 ? statusAnswer(413) : statusAnswer(200)));
  const deps = loopbackDeps();
  const post = (items: readonly number[]) => postJson(deps, `${capture.url}/batch/`, {}, { batch: items });
  const classify = (result: Parameters<typeof classifyResponse>[0]) => classifyResponse(result, deps.clock());
  expect(await sendHalvingOn413([1, 2, 3, 4, 5], post, classify)).toEqual(Array(5).fill({ kind: "delivered" }));
  expect(capture.requests.map((r) => (r.json as { batch: number[] }).batch)).toEqual([[1, 2, 3, 4, 5], [1, 2, 3], [1, 2], [3], [4, 5]]);
  capture.reset();
  capture.setDefault(statusAnswer(413));
  expect(await sendHalvingOn413([1], post, classify)).toMatchObject([{ kind: "failed" }]);
});

test("after halving: an item refused for good goes alone and the rest are still sent; a retry ends the sending, the items not yet sent take it", async () => {
  const deps = loopbackDeps();
  const post = (items: readonly number[]) => postJson(deps, `${capture.url}/batch/`, {}, { batch: items });
  const classify = (result: Parameters<typeof classifyResponse>[0]) => classifyResponse(result, deps.clock());
  const sent = () => capture.requests.map((r) => (r.json as { batch: number[] }).batch);
  capture.setDefault((request) => ((request.json as { batch: number[] }).batch.includes(3) ? statusAnswer(413) : statusAnswer(200)));
  expect((await sendHalvingOn413([1, 2, 3, 4, 5], post, classify)).map((o) => o.kind)).toEqual(["delivered", "delivered", "failed", "delivered", "delivered"]);
  expect(sent()).toEqual([[1, 2, 3, 4, 5], [1, 2, 3], [1, 2], [3], [4, 5]]);
  capture.reset();
  capture.setDefault((request) => {
    const items = (request.json as { batch: number[] }).batch;
    return items.length > 2 ? statusAnswer(413) : items.includes(3) ? statusAnswer(503) : statusAnswer(200);
  });
  expect((await sendHalvingOn413([1, 2, 3, 4, 5], post, classify)).map((o) => o.kind)).toEqual(["delivered", "delivered", "retry", "retry", "retry"]);
  expect(sent()).toEqual([[1, 2, 3, 4, 5], [1, 2, 3], [1, 2], [3]]);
});

test("408, 429 and 5xx are retried; 400 fails", async () => {
  capture.enqueue(statusAnswer(408), statusAnswer(429, { "retry-after": "9" }), statusAnswer(500), jsonAnswer(400, { detail: "bad" }));
  const send = () => posthogSender.send(chatGeneration(), destination, loopbackDeps());
  expect((await send()).kind).toBe("retry");
  expect(await send()).toMatchObject({ kind: "retry", afterSeconds: 9 });
  expect((await send()).kind).toBe("retry");
  expect((await send()).kind).toBe("failed");
});

test("the probe asks the flags endpoint with the project key and records no event", async () => {
  capture.enqueue(jsonAnswer(200, { featureFlags: {} }), jsonAnswer(401, { type: "authentication_error", code: "invalid_api_key" }));
  expect(await posthogSender.probe(destination, loopbackDeps())).toEqual({ ok: true });
  expect(capture.requests[0]).toMatchObject({ method: "POST", path: "/decide/" });
  expect(capture.requests[0]!.json).toMatchObject({ api_key: "phc_test" });
  expect(await posthogSender.probe(destination, loopbackDeps())).toMatchObject({ ok: false, message: expect.stringContaining("credentials") });
});
