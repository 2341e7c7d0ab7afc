// Forwarding as a team sets it up, with nothing injected: destinations created through
// /api/v1/observability/destinations (real store, sealed config), broadcast switched on for the
// workspace, a chat request through the gateway, and the real senders (OTLP webhook, Langfuse)
// delivering from the job worker to loopback receivers through the guarded outbound client.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { createInferenceKey, startTestGateway, type TestGateway, tempDir } from "../../support/gateway";
import { type HttpRecorder, startHttpRecorder } from "../../support/http-recorder";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { until } from "../../support/until";

const CANARY = "CANARY-7d1e0b55";
let up: MockUpstream;
let gw: TestGateway;
let recorder: HttpRecorder;
let key: { key: string; hash: string };
let workspaceId: string;
const dir = tempDir("gw-obs-wired-");

beforeAll(async () => {
  up = await startMockUpstream();
  recorder = startHttpRecorder();
  gw = await startTestGateway({
    dir,
    env: { WORKERS: "1" },
    yaml: `
catalog: { default: false }
security: { allow_private_urls: true }
jobs: { poll_seconds: 0.2, backoff_seconds: [0.05] }
providers:
  - { slug: mock, api: openai-chat, base_url: "${up.url}", api_key: k }
models:
  - id: acme/chat
    endpoints: [{ provider: mock, model: chat-a, pricing: { prompt: "0.000001", completion: "0.000002" } }]
`,
  });
  key = await createInferenceKey(gw);
  workspaceId = ((await (await gw.api("/api/v1/workspaces")).json()) as { data: Array<{ id: string }> }).data[0]!.id;
});
afterAll(async () => {
  await gw.close();
  await up.stop();
  await recorder.stop();
  rmSync(dir, { recursive: true, force: true });
});

const attribute = (span: any, name: string) => span.attributes.find((a: any) => a.key === name)?.value;

test("a chat request reaches every destination the API created, once each, in each type's own wire format; privacy mode sends no content", async () => {
  const create = async (body: Record<string, unknown>) => {
    const res = await gw.api("/api/v1/observability/destinations", { method: "POST", json: body });
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: { id: string } }).data.id;
  };
  await create({ type: "webhook", name: "hook", config: { url: `${recorder.url}/hook` } });
  await create({
    type: "langfuse",
    name: "lf private",
    privacy_mode: true,
    config: { publicKey: "pk-lf-1", secretKey: "sk-lf-0123456789abcdef", baseUrl: recorder.url },
  });
  await create({
    type: "webhook",
    name: "other model only",
    config: { url: `${recorder.url}/never` },
    filter_rules: { groups: [{ rules: [{ field: "model", operator: "starts_with", value: "other/" }] }] },
  });
  recorder.reset(); // the connection tests

  // broadcast off (every workspace's default): nothing is forwarded
  up.enqueue({ text: "first", usage: { input: 5, output: 1 } });
  expect(
    (await gw.api("/api/v1/chat/completions", { method: "POST", key: key.key, json: { model: "acme/chat", messages: [{ role: "user", content: "hi" }] } }))
      .status,
  ).toBe(200);
  await Bun.sleep(600);
  expect(recorder.requests).toHaveLength(0);

  expect((await gw.api(`/api/v1/workspaces/${workspaceId}`, { method: "PATCH", json: { is_observability_broadcast_enabled: true } })).status).toBe(200);
  up.enqueue({ text: `sure: ${CANARY}`, usage: { input: 11, output: 4 } });
  const res = await gw.api("/api/v1/chat/completions", {
    method: "POST",
    key: key.key,
    json: {
      model: "acme/chat",
      messages: [{ role: "user", content: `say ${CANARY}` }],
      session_id: "s-9",
      trace: { trace_id: "0af7651916cd43dd8448eb211c80319c", feature: "demo" },
    },
  });
  expect(res.status).toBe(200);
  const generationId = res.headers.get("x-generation-id")!;
  await until("two deliveries", () => (recorder.requests.length >= 2 ? true : undefined), 10_000);
  await Bun.sleep(500); // and no more
  expect(recorder.requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual(["POST /api/public/otel/v1/traces", "POST /hook"]);

  const hook = recorder.requests.find((r) => r.path === "/hook")!;
  expect(hook.headers["content-type"]).toBe("application/json");
  const root = JSON.parse(hook.body).resourceSpans[0].scopeSpans[0].spans.find((s: any) => s.name === "LLM Generation");
  expect(root.traceId).toBe("0af7651916cd43dd8448eb211c80319c");
  expect(attribute(root, "gen_ai.request.model")).toEqual({ stringValue: "acme/chat" });
  expect(attribute(root, "gen_ai.usage.input_tokens")).toEqual({ intValue: "11" });
  expect(attribute(root, "gen_ai.usage.output_tokens")).toEqual({ intValue: "4" });
  expect(attribute(root, "session.id")).toEqual({ stringValue: "s-9" });
  expect(attribute(root, "trace.metadata.feature")).toEqual({ stringValue: "demo" });
  expect(hook.body).toContain(CANARY);
  expect(hook.body).toContain(generationId);

  const langfuse = recorder.requests.find((r) => r.path === "/api/public/otel/v1/traces")!;
  expect(langfuse.headers.authorization).toBe(`Basic ${btoa("pk-lf-1:sk-lf-0123456789abcdef")}`);
  expect(langfuse.headers["x-langfuse-ingestion-version"]).toBe("4");
  expect(langfuse.body).not.toContain(CANARY);
  expect(langfuse.body).toContain('"intValue":"11"');
}, 30_000);
