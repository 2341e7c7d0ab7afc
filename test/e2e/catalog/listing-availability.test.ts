// What model pickers see: /models lists the gateway.yaml models and the default-catalog models
// that can serve (provider key set, or a BYOK credential for the provider), not every model of
// the embedded catalog (which would each answer 503).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestGateway, type TestGateway } from "../../support/gateway";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({
    yaml: `
providers:
  - { slug: keyless, api: openai-chat, base_url: "http://127.0.0.1:9" }
models:
  - id: acme/declared
    endpoints: [{ provider: keyless, model: d }]
`,
    env: { GROQ_API_KEY: "gsk-test" },
  });
});
afterAll(() => gw.close());

async function listedIds(): Promise<string[]> {
  const body = (await (await gw.api("/api/v1/models?output_modalities=all")).json()) as { data: Array<{ id: string }>; total_count: number };
  expect(body.total_count).toBe(body.data.length);
  const count = (await (await gw.api("/api/v1/models/count?output_modalities=all")).json()) as { data: { count: number } };
  expect(count.data.count).toBe(body.data.length);
  return body.data.map((m) => m.id).sort();
}

/** The models of the whole catalog with an endpoint of one of these providers, plus the declared one. */
function servedBy(...providers: string[]): string[] {
  const ids = gw.ctx.catalog.models().filter((m) => m.id === "acme/declared" || m.endpoints.some((e) => providers.includes(e.provider.slug)));
  return ids.map((m) => m.id).sort();
}

test("without list_unavailable: declared models and those a set provider key serves", async () => {
  const ids = await listedIds();
  expect(ids).toEqual(servedBy("groq"));
  expect(ids).toContain("acme/declared");
  expect(ids.length).toBeGreaterThan(1);
  expect(ids.length).toBeLessThan(gw.ctx.catalog.models().length);
  // a model outside the listing still answers by id
  const anthropicOnly = gw.ctx.catalog.models().find((m) => m.endpoints.every((e) => e.provider.slug === "anthropic"))!;
  expect((await gw.api(`/api/v1/model/${anthropicOnly.id}`)).status).toBe(200);
  expect(ids).not.toContain(anthropicOnly.id);
});

test("a BYOK credential for a provider lists its models; disabling it takes them away", async () => {
  const created = await gw.api("/api/v1/byok", { method: "POST", json: { provider: "anthropic", key: "sk-ant-test" } });
  expect(created.status).toBe(201);
  const { id } = ((await created.json()) as { data: { id: string } }).data;
  expect(await listedIds()).toEqual(servedBy("groq", "anthropic"));
  expect((await gw.api(`/api/v1/byok/${id}`, { method: "PATCH", json: { disabled: true } })).status).toBe(200);
  expect(await listedIds()).toEqual(servedBy("groq"));
});
