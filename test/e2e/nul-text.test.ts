// Stored text cannot hold NUL on PostgreSQL; both dialects answer 400 naming the field instead.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../support/gateway";
import { type MockUpstream, startMockUpstream } from "../support/mock-upstream";

let gw: TestGateway;
let up: MockUpstream;
beforeAll(async () => {
  up = await startMockUpstream();
  gw = await startTestGateway({
    yaml: `providers:\n  - { slug: m, api: openai-chat, base_url: "${up.url}", api_key: k }\nmodels:\n  - id: t/m\n    endpoints: [{ provider: m, model: m }]\n`,
  });
});
afterAll(async () => {
  await gw.close();
  up.stop();
});

test("a NUL in a stored field, a path parameter or a query value is a 400 naming it", async () => {
  const key = await gw.api("/api/v1/keys", { method: "POST", json: { name: "a\u0000b" } });
  expect(key.status).toBe(400);
  expect(await key.json()).toEqual({
    error: { code: 400, message: "Invalid field 'name': text cannot contain the NUL character (\\u0000)", metadata: { field: "name" } },
  });
  const byok = await gw.api("/api/v1/byok", { method: "POST", json: { provider: "m", key: "sk-x", allowed_models: ["ok", "b\u0000d"] } });
  expect(((await byok.json()) as any).error.metadata).toEqual({ field: "allowed_models[1]" });
  const ws = await gw.api("/api/v1/workspaces/a%00b");
  expect(((await ws.json()) as any).error).toMatchObject({ code: 400, metadata: { field: "id" } });
  const list = await gw.api("/api/v1/keys?workspace_id=a%00b");
  expect(((await list.json()) as any).error).toMatchObject({ code: 400, metadata: { field: "workspace_id" } });
});

test("authentication still comes first, and inference content may carry NUL (it goes upstream, not into the store)", async () => {
  expect((await gw.api("/api/v1/keys", { method: "POST", key: null, json: { name: "a\u0000b" } })).status).toBe(401);
  const { key } = await createInferenceKey(gw);
  const res = await gw.api("/api/v1/chat/completions", { method: "POST", key, json: { model: "t/m", messages: [{ role: "user", content: "x\u0000y" }] } });
  expect(res.status).toBe(200);
});
