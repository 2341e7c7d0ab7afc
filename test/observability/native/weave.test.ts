/** W&B Weave against a loopback trace server: Basic api:<key>, project_id entity/project, complete calls. */
import { afterAll, beforeEach, expect, test } from "bun:test";
import { weaveCalls, weaveSender } from "../../../src/observability/native/weave";
import { jsonAnswer, startNativeRecorder, statusAnswer } from "../../support/native-recorder";
import { loopbackDeps } from "../../support/native-sender-deps";
import { chatGeneration, destinationOf, embeddingGeneration, STARTED_AT, videoGeneration } from "../../support/observed-generation";

const weave = startNativeRecorder();
afterAll(() => weave.stop());
beforeEach(() => {
  weave.reset();
  weave.setDefault(jsonAnswer(200, { res: [] }));
});

const destination = destinationOf("weave", { apiKey: "wandb-key", entity: "acme", project: "support", baseUrl: weave.url });
type Call = Record<string, any>;
const calls = () => (weave.requests[0]!.json as { batch: Call[] }).batch;

test("complete calls go to /v2/{entity}/{project}/calls/complete with Basic api:<key>", async () => {
  expect(await weaveSender.send(chatGeneration(), destination, loopbackDeps())).toEqual({ kind: "delivered" });
  const request = weave.requests[0]!;
  expect(request.method).toBe("POST");
  expect(request.path).toBe("/v2/acme/support/calls/complete");
  expect(request.headers.authorization).toBe(`Basic ${Buffer.from("api:wandb-key").toString("base64")}`);
  expect(calls()).toHaveLength(3);
  for (const call of calls()) expect(call.project_id).toBe("acme/support");
});

test("a drain's generations go in one calls/complete request, each one's calls together and in order", async () => {
  const generations = [chatGeneration({ id: "gen-a" }), embeddingGeneration({ id: "gen-b" })];
  expect(await weaveSender.sendMany!(generations, destination, loopbackDeps())).toEqual([{ kind: "delivered" }, { kind: "delivered" }]);
  expect(weave.requests).toHaveLength(1);
  expect(calls().map((c) => c.id)).toEqual([...weaveCalls(generations[0]!, destination), ...weaveCalls(generations[1]!, destination)].map((c) => c.id));
});

test("each call holds its start and end; attempts are children of the generation; usage is per model", async () => {
  await weaveSender.send(chatGeneration(), destination, loopbackDeps());
  const [generation, first] = calls();
  expect(generation).toMatchObject({
    op_name: "model-gateway.chat",
    display_name: "answer",
    started_at: new Date(STARTED_AT).toISOString(),
    ended_at: new Date(STARTED_AT + 1_500).toISOString(),
    thread_id: "session-42",
    summary: { usage: { "acme/alpha": { requests: 1, prompt_tokens: 120, completion_tokens: 45, total_tokens: 165 } } },
  });
  expect(generation!.parent_id).toBeUndefined();
  expect(generation!.inputs.messages).toHaveLength(2);
  expect(generation!.output.role).toBe("assistant");
  expect(generation!.attributes).toMatchObject({ model: "acme/alpha", customer_tier: "gold", cost_usd: { total: 0.00042 } });
  expect(first).toMatchObject({
    op_name: "model-gateway.provider_attempt",
    parent_id: generation!.id,
    trace_id: generation!.trace_id,
    exception: "provider answered 503",
  });
});

test("a retry sends the same call ids; 503 and a dropped socket are retried, 401 fails", async () => {
  weave.enqueue(statusAnswer(503), "drop", jsonAnswer(401, { reason: "bad key" }));
  expect((await weaveSender.send(chatGeneration(), destination, loopbackDeps())).kind).toBe("retry");
  expect((await weaveSender.send(chatGeneration(), destination, loopbackDeps())).kind).toBe("retry");
  expect((await weaveSender.send(chatGeneration(), destination, loopbackDeps())).kind).toBe("failed");
  const ids = weave.requests.map((r) => (r.json as { batch: Call[] }).batch.map((c) => c.id));
  expect(ids[1]).toEqual(ids[0]!);
  expect(ids[2]).toEqual(ids[0]!);
});

test("embeddings have no output; a span_name wrapper is the root call", async () => {
  await weaveSender.send(embeddingGeneration(), destination, loopbackDeps());
  expect(calls()[0]!.output).toBeUndefined();
  expect(calls()[0]!.op_name).toBe("model-gateway.embeddings");
  weave.reset();
  await weaveSender.send(videoGeneration(), destination, loopbackDeps());
  const [wrapper, video] = calls();
  expect(wrapper).toMatchObject({ op_name: "model-gateway.span", display_name: "clip pipeline" });
  expect(video!.parent_id).toBe(wrapper!.id);
});

test("the probe queries one call of entity/project", async () => {
  weave.enqueue(statusAnswer(200), jsonAnswer(403, { reason: "no access" }));
  expect(await weaveSender.probe(destination, loopbackDeps())).toEqual({ ok: true });
  expect(weave.requests[0]).toMatchObject({ method: "POST", path: "/calls/stream_query" });
  expect(weave.requests[0]!.json).toEqual({ project_id: "acme/support", limit: 1 });
  expect(await weaveSender.probe(destination, loopbackDeps())).toMatchObject({ ok: false, message: expect.stringContaining("credentials") });
});
