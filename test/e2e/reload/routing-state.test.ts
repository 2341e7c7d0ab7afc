import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { loadConfig } from "../../../src/config";
import { ADMIN_KEY, createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";

let up: MockUpstream;
let gw: TestGateway;
let key: string;

const file = (models: string, routing = "") => `providers:\n  - { slug: m, api: openai-chat, base_url: "${up.url}", api_key: k }\nmodels:\n${models}${routing}`;
const model = (id: string, upstream: string) =>
  `  - id: ${id}\n    endpoints: [{ provider: m, model: ${upstream}, pricing: { prompt: "0.000001", completion: "0.000002" } }]\n`;

/** writes gateway.yaml and reloads the running gateway from it, as SIGHUP does */
async function reloadWith(yaml: string) {
  const path = join(gw.dir, "gateway.yaml");
  await Bun.write(path, yaml);
  return gw.reload(() =>
    loadConfig({
      PORT: "0",
      DATABASE_URL: `file:${join(gw.dir, "gateway.db")}`,
      GATEWAY_ADMIN_KEY: ADMIN_KEY,
      LOG_LEVEL: "error",
      GATEWAY_CONFIG: path,
      GATEWAY_DEFAULT_CATALOG: "false",
      WORKERS: "0",
    }),
  );
}

const chat = (modelId: string) =>
  gw.api("/api/v1/chat/completions", { method: "POST", key, json: { model: modelId, messages: [{ role: "user", content: "hi" }] } });
const endpointOf = async (modelId: string) => ((await (await gw.api(`/api/v1/models/${modelId}/endpoints`)).json()) as any).data.endpoints[0];

beforeAll(async () => {
  up = await startMockUpstream();
  gw = await startTestGateway({
    yaml: file(model("t/a", "a") + model("t/b", "b"), "routing: { circuit_failures: 2, circuit_cooldown_ms: 60000 }\n"),
    env: { GATEWAY_DEFAULT_CATALOG: "false" },
  });
  key = (await createInferenceKey(gw)).key;
});
afterAll(async () => {
  await gw.close();
  await up.stop();
});

test("an endpoint that survives a reload keeps its open circuit and its live figures; new thresholds apply", async () => {
  // t/a: one success, then two failures open its circuit (circuit_failures: 2)
  up.enqueue({ text: "ok", usage: { input: 1, output: 1 } });
  expect((await chat("t/a")).status).toBe(200);
  for (let i = 0; i < 2; i++) {
    up.enqueue({ status: 500 });
    expect((await chat("t/a")).status).toBe(502);
  }
  // t/b: one failure, below the threshold
  up.enqueue({ status: 500 });
  expect((await chat("t/b")).status).toBe(502);
  const before = await endpointOf("t/a");
  expect(before).toMatchObject({ status: -2, uptime_last_30m: 33.33 });

  // t/b stays, t/a stays, t/c is new; one failure now opens a circuit
  const outcome = await reloadWith(
    file(model("t/a", "a") + model("t/b", "b") + model("t/c", "c"), "routing: { circuit_failures: 1, circuit_cooldown_ms: 60000 }\n"),
  );
  expect(outcome).toEqual({ ok: true, models: 3, restartNeeded: [] });
  expect(await endpointOf("t/a")).toEqual(before);
  // its one failure now reaches the threshold, with no cooldown running: the next request probes it
  expect((await endpointOf("t/b")).status).toBe(-1);
  expect((await endpointOf("t/c")).status).toBe(0);
  up.enqueue({ status: 500 });
  expect((await chat("t/c")).status).toBe(502);
  expect((await endpointOf("t/c")).status).toBe(-2);
});

test("a removed model is gone for new requests; settings that need a restart are named", async () => {
  const outcome = await reloadWith(`${file(model("t/c", "c"))}server: { max_body_mb: 1 }\n`);
  expect(outcome).toEqual({ ok: true, models: 1, restartNeeded: ["server"] });
  const gone = await chat("t/a");
  expect(gone.status).toBe(404);
  expect(((await gone.json()) as any).error.message).toStartWith("Model not found: t/a. Models are declared under models: in gateway.yaml");
  expect(gw.ctx.config.server.maxBodyMb).toBe(32);
  const models = ((await (await gw.api("/api/v1/models")).json()) as any).data.map((m: { id: string }) => m.id);
  expect(models).toEqual(["t/c"]);
});

test("a reload whose file fails keeps everything as it was", async () => {
  const outcome = await reloadWith("models: [\n");
  expect(outcome).toEqual({
    ok: false,
    error: "config error: GATEWAY_CONFIG line 2, column 1: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]",
  });
  up.enqueue({ text: "kept", usage: { input: 1, output: 1 } });
  expect((await chat("t/c")).status).toBe(200);
});
