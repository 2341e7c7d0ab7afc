/** Opik against a loopback API standing in for Opik Cloud: traces before spans, raw key, workspace header, UUIDv7 ids. */
import { afterAll, beforeEach, expect, test } from "bun:test";
import { OPIK_CLOUD_API, opikRows, opikSender } from "../../../src/observability/native/opik";
import { jsonAnswer, startNativeRecorder, statusAnswer } from "../../support/native-recorder";
import { loopbackDeps } from "../../support/native-sender-deps";
import { chatGeneration, destinationOf, embeddingGeneration, failedGeneration, STARTED_AT, videoGeneration } from "../../support/observed-generation";

const opik = startNativeRecorder();
afterAll(() => opik.stop());
beforeEach(() => {
  opik.reset();
  opik.setDefault(statusAnswer(204));
});

// Opik Cloud's host is fixed: the test's http sends www.comet.com to the recorder
const deps = () => loopbackDeps({ "www.comet.com": opik.url });
const destination = (headers?: Record<string, string>) =>
  destinationOf("opik", { apiKey: "opik-key", workspace: "acme-ws", projectName: "support", ...(headers ? { headers } : {}) });
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Row = Record<string, any>;
const traces = () => (opik.requests[0]!.json as { traces: Row[] }).traces;
const spans = () => (opik.requests[1]!.json as { spans: Row[] }).spans;

test("the trace batch is posted before the span batch, to Opik Cloud's API, with the bare key and the workspace", async () => {
  const d = deps();
  expect(await opikSender.send(chatGeneration(), destination(), d)).toEqual({ kind: "delivered" });
  expect(d.http.urls).toEqual([`${OPIK_CLOUD_API}/v1/private/traces/batch`, `${OPIK_CLOUD_API}/v1/private/spans/batch`]);
  expect(opik.requests.map((r) => r.path)).toEqual(["/opik/api/v1/private/traces/batch", "/opik/api/v1/private/spans/batch"]);
  for (const request of opik.requests) {
    expect(request.headers.authorization).toBe("opik-key");
    expect(request.headers["comet-workspace"]).toBe("acme-ws");
  }
});

test("a drain's generations: one trace batch, then one span batch for those whose trace went through; each generation its own outcome", async () => {
  // without a caller trace id, each generation is a trace of its own
  const generations = [
    chatGeneration({ id: "gen-a", trace: null }),
    chatGeneration({ id: "gen-refused", trace: null }),
    embeddingGeneration({ id: "gen-b", trace: null }),
  ];
  const refusedTrace = (opikRows(generations[1]!, destination()).trace as Row).id;
  opik.setDefault((request) =>
    (request.json as { traces?: Row[] }).traces?.some((t) => t.id === refusedTrace) ? jsonAnswer(400, { errors: ["bad trace"] }) : statusAnswer(204),
  );
  expect((await opikSender.sendMany!(generations, destination(), deps())).map((o) => o.kind)).toEqual(["delivered", "failed", "delivered"]);
  const sent = opik.requests.map((r) => [
    r.path.split("/").at(-2),
    ((r.json as { traces?: Row[]; spans?: Row[] }).traces ?? (r.json as { spans: Row[] }).spans).map((row) => row.id),
  ]);
  const rows = generations.map((g) => opikRows(g, destination()));
  // all three traces, halved down to the refused one; then the spans of the two others in one batch
  expect(sent).toEqual([
    ["traces", rows.map((r) => (r.trace as Row).id)],
    ["traces", [rows[0]!, rows[1]!].map((r) => (r.trace as Row).id)],
    ["traces", [(rows[0]!.trace as Row).id]],
    ["traces", [(rows[1]!.trace as Row).id]],
    ["traces", [(rows[2]!.trace as Row).id]],
    ["spans", [...rows[0]!.spans, ...rows[2]!.spans].map((span) => span.id)],
  ]);
});

test("ids are version 7 UUIDs; spans name their trace and parents; usage is integers, cost USD", async () => {
  await opikSender.send(chatGeneration(), destination(), deps());
  const [trace] = traces();
  expect(trace!.id).toMatch(UUID_V7);
  expect(trace).toMatchObject({ project_name: "support", name: "Support bot", thread_id: "session-42", start_time: new Date(STARTED_AT).toISOString() });
  const [generation, first] = spans();
  for (const span of spans()) {
    expect(span.id).toMatch(UUID_V7);
    expect(span.trace_id).toBe(trace!.id);
  }
  expect(generation).toMatchObject({
    type: "llm",
    name: "answer",
    model: "acme/alpha",
    provider: "acme-cloud",
    usage: { prompt_tokens: 120, completion_tokens: 45, total_tokens: 165 },
    total_estimated_cost: 0.00042,
  });
  expect(generation!.parent_span_id).toBeUndefined();
  expect(first).toMatchObject({ type: "general", parent_span_id: generation!.id, provider: "flaky-cloud", error_info: { exception_type: "GenerationError" } });
  expect(generation!.input.messages).toHaveLength(2);
});

test("a retry sends the same ids", async () => {
  await opikSender.send(chatGeneration(), destination(), deps());
  const first = { trace: traces()[0]!.id, spans: spans().map((s) => s.id) };
  opik.reset();
  await opikSender.send(chatGeneration(), destination(), deps());
  expect({ trace: traces()[0]!.id, spans: spans().map((s) => s.id) }).toEqual(first);
});

test("a failed trace batch stops before the spans; 429 is retried after Retry-After, 400 fails", async () => {
  opik.enqueue(statusAnswer(429, { "retry-after": "5" }));
  expect(await opikSender.send(chatGeneration(), destination(), deps())).toMatchObject({ kind: "retry", afterSeconds: 5 });
  expect(opik.requests).toHaveLength(1);
  opik.enqueue(statusAnswer(204), jsonAnswer(400, { errors: ["bad span"] }));
  expect(await opikSender.send(chatGeneration(), destination(), deps())).toMatchObject({ kind: "failed", reason: expect.stringContaining("bad span") });
});

test("embeddings, video and failed generations give valid rows", async () => {
  await opikSender.send(embeddingGeneration(), destination(), deps());
  expect(spans()[0]).toMatchObject({ type: "llm", usage: { prompt_tokens: 8, total_tokens: 8 } });
  expect(spans()[0]!.output).toBeUndefined();
  opik.reset();
  await opikSender.send(videoGeneration(), destination(), deps());
  expect(spans().map((s) => s.name)).toEqual(["clip pipeline", "acme/video", "provider attempt 1: acme-cloud"]);
  expect(spans()[0]!.type).toBe("general");
  expect(spans()[1]!.usage).toEqual({});
  opik.reset();
  await opikSender.send(failedGeneration(), destination(), deps());
  expect(traces()[0]!.error_info).toEqual({ exception_type: "GenerationError", message: "all providers failed", traceback: "" });
});

test("a user header cannot replace the authorization or workspace header", async () => {
  await opikSender.send(chatGeneration(), destination({ Authorization: "Bearer other", "Comet-Workspace": "other", "X-Extra": "1" }), deps());
  expect(opik.requests[0]!.headers).toMatchObject({ authorization: "opik-key", "comet-workspace": "acme-ws", "x-extra": "1" });
});

test("the probe lists projects by name with the same headers", async () => {
  opik.enqueue(jsonAnswer(200, { content: [] }), jsonAnswer(401, { errors: ["unauthorized"] }));
  expect(await opikSender.probe(destination(), deps())).toEqual({ ok: true });
  expect(opik.requests[0]).toMatchObject({ method: "GET", path: "/opik/api/v1/private/projects" });
  expect(opik.requests[0]!.query.get("name")).toBe("support");
  expect(opik.requests[0]!.headers.authorization).toBe("opik-key");
  expect(await opikSender.probe(destination(), deps())).toMatchObject({ ok: false, message: expect.stringContaining("credentials") });
});
