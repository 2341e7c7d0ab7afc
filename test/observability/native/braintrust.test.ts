/** Braintrust project logs against a loopback API: the insert, ids stable across retries, metrics in seconds. */
import { afterAll, beforeEach, expect, test } from "bun:test";
import { braintrustEvents, braintrustSender } from "../../../src/observability/native/braintrust";
import { jsonAnswer, startNativeRecorder, statusAnswer } from "../../support/native-recorder";
import { loopbackDeps } from "../../support/native-sender-deps";
import { chatGeneration, destinationOf, embeddingGeneration, STARTED_AT, videoGeneration } from "../../support/observed-generation";

const api = startNativeRecorder();
afterAll(() => api.stop());
beforeEach(() => {
  api.reset();
  api.setDefault(jsonAnswer(200, { row_ids: ["r1"] }));
});

const destination = destinationOf("braintrust", { apiKey: "bt-key", projectId: "proj-123", baseUrl: `${api.url}/` });
type Event = {
  id: string;
  span_id: string;
  root_span_id: string;
  span_parents?: string[];
  span_attributes: { name: string; type: string };
  input?: any;
  output?: any;
  metadata: Record<string, unknown>;
  metrics: Record<string, number>;
  error?: string;
};
const events = (i = 0) => (api.requests[i]!.json as { events: Event[] }).events;

test("the insert goes to /v1/project_logs/{projectId}/insert with the Bearer key", async () => {
  expect(await braintrustSender.send(chatGeneration(), destination, loopbackDeps())).toEqual({ kind: "delivered" });
  const request = api.requests[0]!;
  expect(request.method).toBe("POST");
  expect(request.path).toBe("/v1/project_logs/proj-123/insert");
  expect(request.headers.authorization).toBe("Bearer bt-key");
  expect(events()).toHaveLength(3);
});

test("a drain's generations go in one insert, each one's events together and in order", async () => {
  const generations = [chatGeneration({ id: "gen-a" }), chatGeneration({ id: "gen-b" })];
  expect(await braintrustSender.sendMany!(generations, destination, loopbackDeps())).toEqual([{ kind: "delivered" }, { kind: "delivered" }]);
  expect(api.requests).toHaveLength(1);
  const [a, b] = [braintrustEvents(generations[0]!, destination), braintrustEvents(generations[1]!, destination)];
  expect(events().map((e) => e.id)).toEqual([...a, ...b].map((e) => e.id as string));
});

test("the generation is an llm span with OpenAI-style input, its attempts are children, metrics are in seconds", async () => {
  await braintrustSender.send(chatGeneration(), destination, loopbackDeps());
  const [generation, first, second] = events();
  expect(generation!.span_attributes).toEqual({ name: "answer", type: "llm" });
  expect(generation!.span_parents).toBeUndefined();
  expect(first!.span_parents).toEqual([generation!.span_id]);
  expect(second!.span_parents).toEqual([generation!.span_id]);
  expect(new Set(events().map((e) => e.root_span_id)).size).toBe(1);
  expect(generation!.input.messages[0]).toEqual({ role: "system", content: "You are terse." });
  expect(generation!.output).toMatchObject({ role: "assistant", content: expect.stringContaining("Hi") });
  expect(generation!.metrics).toMatchObject({
    start: STARTED_AT / 1000,
    end: (STARTED_AT + 1_500) / 1000,
    prompt_tokens: 120,
    completion_tokens: 45,
    tokens: 165,
    time_to_first_token: 0.32,
    cost: 0.00042,
  });
  expect(generation!.metadata).toMatchObject({
    model: "acme/alpha",
    provider: "acme-cloud",
    user_id: "end-user-7",
    session_id: "session-42",
    api_key_name: "Production key",
    customer_tier: "gold",
    trace_id: "caller-trace-1",
  });
  expect(first!.metrics).toEqual({ start: (STARTED_AT + 10) / 1000, end: (STARTED_AT + 210) / 1000 });
  expect(first!.error).toBe("provider answered 503");
});

test("ids are the same on a retry (429, then 200), so Braintrust replaces rather than duplicates", async () => {
  api.enqueue(statusAnswer(429, { "retry-after": "2" }));
  expect(await braintrustSender.send(chatGeneration(), destination, loopbackDeps())).toMatchObject({ kind: "retry", afterSeconds: 2 });
  expect(await braintrustSender.send(chatGeneration(), destination, loopbackDeps())).toEqual({ kind: "delivered" });
  expect(events(1).map((e) => e.id)).toEqual(events(0).map((e) => e.id));
  expect(events(1).map((e) => e.span_id)).toEqual(events(0).map((e) => e.span_id));
});

test("a generation that is its own trace is the root: span_id equals root_span_id", async () => {
  await braintrustSender.send(chatGeneration({ trace: null }), destination, loopbackDeps());
  const [generation] = events();
  expect(generation!.span_id).toBe(generation!.root_span_id);
});

test("embeddings (no output) and video (span_name wrapper) give valid events", async () => {
  await braintrustSender.send(embeddingGeneration(), destination, loopbackDeps());
  expect(events()[0]!.output).toBeUndefined();
  expect(events()[0]!.metrics).toMatchObject({ prompt_tokens: 8, tokens: 8 });
  api.reset();
  await braintrustSender.send(videoGeneration(), destination, loopbackDeps());
  const [wrapper, video] = events();
  expect(wrapper!.span_attributes).toEqual({ name: "clip pipeline", type: "task" });
  expect(wrapper!.span_id).toBe(wrapper!.root_span_id);
  expect(video!.span_parents).toEqual([wrapper!.span_id]);
  expect(video!.metrics.tokens).toBeUndefined();
});

test("5xx and a dropped socket are retried; 400 fails", async () => {
  api.enqueue(statusAnswer(502), "drop", jsonAnswer(400, { error: "bad event" }));
  expect((await braintrustSender.send(chatGeneration(), destination, loopbackDeps())).kind).toBe("retry");
  expect((await braintrustSender.send(chatGeneration(), destination, loopbackDeps())).kind).toBe("retry");
  expect(await braintrustSender.send(chatGeneration(), destination, loopbackDeps())).toMatchObject({
    kind: "failed",
    reason: expect.stringContaining("bad event"),
  });
});

test("the probe reads the project; 401 and 404 say what is wrong", async () => {
  api.enqueue(jsonAnswer(200, { id: "proj-123" }), jsonAnswer(401, {}), jsonAnswer(404, {}));
  expect(await braintrustSender.probe(destination, loopbackDeps())).toEqual({ ok: true });
  expect(api.requests[0]).toMatchObject({ method: "GET", path: "/v1/project/proj-123" });
  expect(api.requests[0]!.headers.authorization).toBe("Bearer bt-key");
  expect(await braintrustSender.probe(destination, loopbackDeps())).toMatchObject({ ok: false, message: expect.stringContaining("credentials") });
  expect(await braintrustSender.probe(destination, loopbackDeps())).toMatchObject({ ok: false, message: expect.stringContaining("project was not found") });
});
