// A gateway without security.allow_private_urls: destination URLs are checked like every URL an
// API caller supplies, when saved (400 naming the config key) and before the connection test.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestGateway, type TestGateway } from "../../support/gateway";
import { type HttpRecorder, startHttpRecorder } from "../../support/http-recorder";

let gw: TestGateway;
let recorder: HttpRecorder;
const names: Record<string, string> = { "collector.internal.example": "10.0.0.5", "us.cloud.langfuse.com": "93.184.216.34" };

beforeAll(async () => {
  recorder = startHttpRecorder();
  gw = await startTestGateway({
    lookup: async (host) => {
      const address = names[host];
      if (!address) throw new Error(`ENOTFOUND ${host}`);
      return [{ address, family: 4 }];
    },
  });
});
afterAll(async () => {
  await gw.close();
  await recorder.stop();
});

async function create(body: unknown, query = "") {
  const res = await gw.api(`/api/v1/observability/destinations${query}`, { method: "POST", json: body });
  return { status: res.status, body: (await res.json()) as any };
}

test("a loopback receiver is refused with a 400 naming the key, and nothing is sent to it", async () => {
  const plain = await create({ type: "webhook", name: "w", config: { url: `${recorder.url}/otlp` } });
  expect(plain).toEqual({ status: 400, body: { error: { code: 400, message: "Invalid 'config.url': must use https", metadata: { field: "config.url" } } } });
  const tls = await create({ type: "otel-collector", name: "c", config: { endpoint: "https://127.0.0.1:4318/v1/traces" } });
  expect(tls.status).toBe(400);
  expect(tls.body.error.metadata).toEqual({ field: "config.endpoint" });
  expect(tls.body.error.message).toStartWith("Invalid 'config.endpoint': address 127.0.0.1 ");
  expect(recorder.requests).toHaveLength(0);
});

test("a name that resolves to a private address is refused; a default public URL passes the check", async () => {
  const internal = await create({ type: "otel-collector", name: "c", config: { endpoint: "https://collector.internal.example/v1/traces" } });
  expect(internal.status).toBe(400);
  expect(internal.body.error.metadata).toEqual({ field: "config.endpoint" });
  expect(internal.body.error.message).toStartWith("Invalid 'config.endpoint': host 'collector.internal.example' resolves to 10.0.0.5, which ");
  const unresolved = await create({ type: "grafana", name: "g", config: { apiKey: "k", instanceId: "1", baseUrl: "https://nowhere.example" } });
  expect([unresolved.status, unresolved.body.error.metadata.field]).toEqual([400, "config.baseUrl"]);
  const langfuse = await create({ type: "langfuse", name: "lf", config: { publicKey: "pk", secretKey: "sk-lf-secret-value" } }, "?skip_test=true");
  expect(langfuse.status).toBe(201);
  expect(langfuse.body.data.config.baseUrl).toBe("https://us.cloud.langfuse.com");
});
