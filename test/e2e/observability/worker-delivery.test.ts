// The job workers' wiring: a job on the worker thread (its own store connection, no read cache)
// reads a destination saved through the API with its secrets opened, and its type's sender
// delivers the generation to a loopback receiver; a 503 is retried, a deleted destination is not.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestGateway, type TestGateway } from "../../support/gateway";
import { type HttpRecorder, startHttpRecorder } from "../../support/http-recorder";
import { until } from "../../support/until";
import { observedGeneration } from "../../unit/observability/fixtures";

const JOB_KINDS = new URL("../../support/observability-job-kinds.ts", import.meta.url).href;
const YAML = "security: { allow_private_urls: true }\njobs:\n  backoff_seconds: [0.05, 0.05]\n  poll_seconds: 5\n";
const SECRET = "sk-lf-worker-0123456789";

let gw: TestGateway;
let recorder: HttpRecorder;

beforeAll(async () => {
  recorder = startHttpRecorder();
  gw = await startTestGateway({ yaml: YAML, env: { WORKERS: "1" }, jobModules: [JOB_KINDS] });
});
afterAll(async () => {
  await gw?.close();
  await recorder?.stop();
});

const stateOf = async (id: string) => (await gw.ctx.store.jobs.get(id))?.state;

async function langfuse(): Promise<string> {
  const res = await gw.api("/api/v1/observability/destinations", {
    method: "POST",
    json: { type: "langfuse", name: "lf", config: { publicKey: "pk-lf-w", secretKey: SECRET, baseUrl: recorder.url } },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as any).data.id;
}

const send = (id: string, destinationId: string) =>
  gw.ctx.store.transaction((tx) =>
    tx.jobs.enqueue({
      id,
      kind: "test.observability-send",
      payload: { destination_id: destinationId, generation: observedGeneration() },
      runAt: Date.now(),
      now: Date.now(),
    }),
  );

test("a worker reads the destination with its secret opened and delivers the trace, retrying a 503", async () => {
  const id = await langfuse();
  recorder.reset();
  recorder.script({ status: 503, text: "busy" });
  await send("deliver-1", id);
  await until("delivered", async () => ((await stateOf("deliver-1")) === "done" ? true : undefined), 8000);
  expect(recorder.requests).toHaveLength(2);
  const delivered = recorder.requests[1]!;
  expect(delivered.path).toBe("/api/public/otel/v1/traces");
  expect(delivered.headers.authorization).toBe(`Basic ${Buffer.from(`pk-lf-w:${SECRET}`).toString("base64")}`);
  expect(delivered.body).toBe(recorder.requests[0]!.body);
  const body = JSON.parse(delivered.body);
  expect(body.resourceSpans[0].scopeSpans[0].spans.map((s: any) => s.name)).toEqual([
    "LLM Generation",
    "provider attempt 1: flaky",
    "provider attempt 2: mock",
  ]);
});

test("a destination deleted before its job runs is not sent to", async () => {
  const id = await langfuse();
  expect((await gw.api(`/api/v1/observability/destinations/${id}`, { method: "DELETE" })).status).toBe(200);
  recorder.reset();
  await send("deliver-2", id);
  await until("dead", async () => ((await stateOf("deliver-2")) === "dead" ? true : undefined), 8000);
  expect(recorder.requests).toHaveLength(0);
  expect((await gw.ctx.store.jobs.get("deliver-2"))!.lastError).toContain("the destination is gone or disabled");
});
