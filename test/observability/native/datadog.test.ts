/** Datadog LLM Observability against a loopback intake: the span envelope, 202, probes and retry classes. */
import { afterAll, beforeEach, expect, test } from "bun:test";
import { datadogPayload, datadogSender } from "../../../src/observability/native/datadog";
import { jsonAnswer, startNativeRecorder, statusAnswer } from "../../support/native-recorder";
import { loopbackDeps } from "../../support/native-sender-deps";
import { chatGeneration, destinationOf, embeddingGeneration, failedGeneration, STARTED_AT, videoGeneration } from "../../support/observed-generation";

const intake = startNativeRecorder();
afterAll(() => intake.stop());
beforeEach(() => {
  intake.reset();
  intake.setDefault(statusAnswer(202));
});

const destination = (headers?: Record<string, string>) =>
  destinationOf("datadog", { apiKey: "dd-key-1", mlApp: "support-bot", url: intake.url, ...(headers ? { headers } : {}) });

type Span = {
  trace_id: string;
  span_id: string;
  parent_id: string;
  name: string;
  start_ns: number;
  duration: number;
  status: string;
  meta: Record<string, any>;
  metrics?: Record<string, number>;
};
const body = () => intake.requests[0]!.json as { data: { type: string; attributes: { ml_app: string; session_id?: string; tags: string[]; spans: Span[] } } };

test("spans go to the LLM Obs intake with DD-API-KEY; 202 is delivered", async () => {
  expect(await datadogSender.send(chatGeneration(), destination(), loopbackDeps())).toEqual({ kind: "delivered" });
  const request = intake.requests[0]!;
  expect(request.method).toBe("POST");
  expect(request.path).toBe("/api/intake/llm-obs/v1/trace/spans");
  expect(request.headers["dd-api-key"]).toBe("dd-key-1");
  expect(request.headers["content-type"]).toBe("application/json");
  const { data } = body();
  expect(data.type).toBe("span");
  expect(data.attributes.ml_app).toBe("support-bot");
  expect(data.attributes.session_id).toBe("session-42");
  expect(data.attributes.tags).toContain("user_id:end-user-7");
});

test("a drain's generations that share session and tags go in one request; the others in their own; each generation its own outcome", async () => {
  const generations = [chatGeneration({ id: "gen-a" }), chatGeneration({ id: "gen-other", sessionId: "session-9" }), chatGeneration({ id: "gen-b" })];
  const spansOf = (g: (typeof generations)[number]) => datadogPayload(g, destination()).data.attributes.spans.map((span) => span.span_id as string);
  intake.enqueue(statusAnswer(202), jsonAnswer(400, { errors: ["bad span"] }));
  expect((await datadogSender.sendMany!(generations, destination(), loopbackDeps())).map((o) => o.kind)).toEqual(["delivered", "failed", "delivered"]);
  const sent = intake.requests.map((r) => (r.json as ReturnType<typeof body>).data.attributes);
  expect(sent.map((a) => a.session_id)).toEqual(["session-42", "session-9"]);
  expect(sent.map((a) => a.spans.map((span) => span.span_id))).toEqual([[...spansOf(generations[0]!), ...spansOf(generations[2]!)], spansOf(generations[1]!)]);
});

test('the root\'s parent is "undefined", attempts are its children, times are integer nanoseconds', async () => {
  await datadogSender.send(chatGeneration(), destination(), loopbackDeps());
  const [root, first, second] = body().data.attributes.spans;
  expect(root!.parent_id).toBe("undefined");
  expect(root!.name).toBe("answer");
  expect(first!.parent_id).toBe(root!.span_id);
  expect(second!.name).toBe("provider attempt 2: acme-cloud");
  expect(new Set([root!.trace_id, first!.trace_id, second!.trace_id]).size).toBe(1);
  expect(root!.trace_id).toMatch(/^[0-9a-f]{32}$/);
  // exact: the raw text holds the integer, not a rounded double
  expect(intake.requests[0]!.body).toContain(`"start_ns":${BigInt(STARTED_AT) * 1_000_000n}`);
  expect(root!.duration).toBe(1_500 * 1e6);
  expect(first!.status).toBe("error");
  expect(root!.status).toBe("ok");
  expect(root!.meta.kind).toBe("llm");
  expect(root!.meta.input.messages[1]).toEqual({ role: "user", content: expect.stringContaining("Say hi") });
  expect(root!.meta.output.messages[0].role).toBe("assistant");
  expect(root!.meta.metadata).toMatchObject({
    model_name: "acme/alpha",
    model_provider: "acme-cloud",
    temperature: 0.2,
    max_tokens: 256,
    customer_tier: "gold",
  });
  for (const value of Object.values(root!.meta.metadata)) expect(["string", "number", "boolean"]).toContain(typeof value);
  expect(root!.metrics).toEqual({
    input_tokens: 120,
    output_tokens: 45,
    total_tokens: 165,
    cache_read_input_tokens: 20,
    reasoning_output_tokens: 5,
    time_to_first_token: 0.32,
  });
});

test("embeddings become an embedding span with documents; video a task under its span_name workflow", async () => {
  await datadogSender.send(embeddingGeneration(), destination(), loopbackDeps());
  const [embedding] = body().data.attributes.spans;
  expect(embedding!.meta.kind).toBe("embedding");
  expect(embedding!.meta.input.documents[0].text).toContain("embed me");
  expect(embedding!.meta.output).toBeUndefined();
  intake.reset();
  await datadogSender.send(videoGeneration(), destination(), loopbackDeps());
  const [workflow, video] = body().data.attributes.spans;
  expect(workflow!.meta.kind).toBe("workflow");
  expect(workflow!.parent_id).toBe("undefined");
  expect(video!.meta.kind).toBe("task");
  expect(video!.parent_id).toBe(workflow!.span_id);
});

test("a failed generation is an error span with its message", async () => {
  await datadogSender.send(failedGeneration(), destination(), loopbackDeps());
  const [root] = body().data.attributes.spans;
  expect(root!.status).toBe("error");
  expect(root!.meta.error.message).toBe("all providers failed");
});

test("user headers are sent but never replace the API key", async () => {
  await datadogSender.send(chatGeneration(), destination({ "DD-API-KEY": "hijack", "X-Team": "llm" }), loopbackDeps());
  expect(intake.requests[0]!.headers["dd-api-key"]).toBe("dd-key-1");
  expect(intake.requests[0]!.headers["x-team"]).toBe("llm");
});

test("429 and 503 are retried (Retry-After honoured), 400 and 403 fail, a dropped connection is retried", async () => {
  const send = () => datadogSender.send(chatGeneration(), destination(), loopbackDeps());
  intake.enqueue(statusAnswer(429, { "retry-after": "12" }), statusAnswer(503), jsonAnswer(400, { errors: ["bad span"] }), statusAnswer(403), "drop");
  expect(await send()).toMatchObject({ kind: "retry", afterSeconds: 12 });
  expect(await send()).toMatchObject({ kind: "retry" });
  expect(await send()).toMatchObject({ kind: "failed", reason: expect.stringContaining("bad span") });
  expect(await send()).toMatchObject({ kind: "failed" });
  expect(await send()).toMatchObject({ kind: "retry" });
});

test("the probe validates the key: valid passes, 403 names the credentials", async () => {
  intake.enqueue(jsonAnswer(200, { valid: true }), jsonAnswer(403, { errors: ["Forbidden"] }));
  expect(await datadogSender.probe(destination(), loopbackDeps())).toEqual({ ok: true });
  expect(intake.requests[0]!.method).toBe("GET");
  expect(intake.requests[0]!.path).toBe("/api/v1/validate");
  expect(intake.requests[0]!.headers["dd-api-key"]).toBe("dd-key-1");
  expect(await datadogSender.probe(destination(), loopbackDeps())).toMatchObject({ ok: false, message: expect.stringContaining("credentials") });
});

test("config keys: url defaults to us5, mlApp follows Datadog's naming rule", () => {
  const keys = Object.fromEntries(datadogSender.configKeys.map((k) => [k.key, k]));
  expect(keys.url).toMatchObject({ default: "https://api.us5.datadoghq.com", url: true, required: false });
  expect(keys.apiKey).toMatchObject({ required: true, secret: true });
  const pattern = keys.mlApp!.pattern!;
  expect(pattern.test("support-bot:v1/prod.eu")).toBe(true);
  for (const bad of ["Support", "a__b", "trailing_", "x".repeat(194), "sp ace"]) expect(pattern.test(bad)).toBe(false);
});
