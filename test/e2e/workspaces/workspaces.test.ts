import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { defaultGuardrailId } from "../../../src/gateway/guardrails/default-guardrail";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function call(method: string, path: string, json?: unknown, key?: string) {
  const res = await gw.api(path, { method, json, key });
  return { status: res.status, body: (await res.json()) as any };
}

let n = 0;
async function createWs(extra: Record<string, unknown> = {}) {
  n += 1;
  const res = await call("POST", "/api/v1/workspaces", { name: `WS ${n}`, slug: `ws-${n}`, ...extra });
  if (res.status !== 201) throw new Error(`create workspace: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

describe("workspaces CRUD", () => {
  test("create returns 201 with every Workspace field and updated_at null", async () => {
    const res = await call("POST", "/api/v1/workspaces", { name: "Research", slug: "research", description: "the lab" });
    expect(res.status).toBe(201);
    const ws = res.body.data;
    expect(ws.id).toMatch(UUID);
    expect(ws.created_at).toMatch(ISO);
    expect(ws).toEqual({
      id: ws.id,
      name: "Research",
      slug: "research",
      description: "the lab",
      created_at: ws.created_at,
      updated_at: null,
      created_by: "owner",
      default_guardrail_id: defaultGuardrailId(ws.id),
      default_text_model: null,
      default_image_model: null,
      default_provider_sort: null,
      rate_limit: { rpm: null, tpm: null, concurrency: null },
      webhook_url: null,
      disabled_server_tools: null,
      io_logging_api_key_ids: null,
      io_logging_sampling_rate: 1,
      is_data_discount_logging_enabled: false,
      is_observability_broadcast_enabled: false,
      is_observability_io_logging_enabled: false,
    });
  });

  test("every settable field round-trips through create, get and patch", async () => {
    const settings = {
      default_text_model: "acme/alpha",
      default_image_model: "acme/pix",
      default_provider_sort: "throughput",
      disabled_server_tools: ["openrouter:web_search"],
      io_logging_api_key_ids: [1, 2],
      io_logging_sampling_rate: 0.25,
      is_data_discount_logging_enabled: true,
      is_observability_broadcast_enabled: true,
      is_observability_io_logging_enabled: true,
    };
    const ws = await createWs(settings);
    expect(ws).toMatchObject(settings);
    expect((await call("GET", `/api/v1/workspaces/${ws.id}`)).body.data).toEqual(ws);
    const patched = await call("PATCH", `/api/v1/workspaces/${ws.id}`, { io_logging_sampling_rate: 0.5, default_provider_sort: null, description: "x" });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual({
      ...ws,
      io_logging_sampling_rate: 0.5,
      default_provider_sort: null,
      description: "x",
      updated_at: patched.body.data.updated_at,
    });
    expect(patched.body.data.updated_at).toMatch(ISO);
  });

  test("get, patch and delete address a workspace by UUID or by slug", async () => {
    const ws = await createWs();
    expect((await call("GET", `/api/v1/workspaces/${ws.slug}`)).body.data).toEqual(ws);
    expect((await call("GET", `/api/v1/workspaces/${ws.id}`)).body.data).toEqual(ws);
    const bySlug = await call("PATCH", `/api/v1/workspaces/${ws.slug}`, { name: "Renamed" });
    expect(bySlug.body.data.name).toBe("Renamed");
    const renamed = await call("PATCH", `/api/v1/workspaces/${ws.id}`, { slug: `${ws.slug}-two` });
    expect(renamed.body.data.slug).toBe(`${ws.slug}-two`);
    expect((await call("GET", `/api/v1/workspaces/${ws.slug}`)).status).toBe(404);
    expect(await call("DELETE", `/api/v1/workspaces/${ws.slug}-two`)).toEqual({ status: 200, body: { deleted: true } });
    expect((await call("GET", `/api/v1/workspaces/${ws.id}`)).status).toBe(404);
    expect((await call("PATCH", `/api/v1/workspaces/${ws.id}`, { name: "x" })).status).toBe(404);
    expect((await call("DELETE", `/api/v1/workspaces/${ws.id}`)).status).toBe(404);
  });

  test("a duplicate slug is 409 on create and on rename; renaming to its own slug is fine", async () => {
    const a = await createWs();
    const b = await createWs();
    const dup = await call("POST", "/api/v1/workspaces", { name: "Other", slug: a.slug });
    expect(dup).toEqual({
      status: 409,
      body: { error: { code: 409, message: `A workspace with slug '${a.slug}' already exists`, metadata: { slug: a.slug } } },
    });
    expect((await call("PATCH", `/api/v1/workspaces/${b.id}`, { slug: a.slug })).status).toBe(409);
    expect((await call("PATCH", `/api/v1/workspaces/${a.id}`, { slug: a.slug })).status).toBe(200);
    expect((await call("POST", "/api/v1/workspaces", { name: "Default again", slug: "default" })).status).toBe(409);
  });

  test("field bounds: each at its limit passes, just past it is 400 naming the field", async () => {
    const ok = (extra: Record<string, unknown>) => createWs(extra).then(() => true);
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await call("POST", "/api/v1/workspaces", { name: "N", slug: `bad-${++n}`, ...body });
      expect(res.status).toBe(400);
      expect(res.body.error.metadata.field).toBe(field);
    };
    expect(await ok({ name: "x".repeat(100) })).toBe(true);
    expect(await ok({ name: "x" })).toBe(true);
    await bad({ name: "x".repeat(101) }, "name");
    await bad({ name: "" }, "name");
    expect((await call("POST", "/api/v1/workspaces", { name: "N", slug: "s".repeat(50) })).status).toBe(201);
    await bad({ slug: "s".repeat(51) }, "slug");
    await bad({ slug: "" }, "slug");
    for (const slug of ["Upper", "a--b", "-a", "a-", "a b", "a_b"]) await bad({ slug }, "slug");
    expect((await call("POST", "/api/v1/workspaces", { name: "N", slug: "a1-b2-c3" })).status).toBe(201);
    expect(await ok({ description: "d".repeat(500) })).toBe(true);
    await bad({ description: "d".repeat(501) }, "description");
    for (const sort of ["price", "throughput", "latency", "exacto"]) expect(await ok({ default_provider_sort: sort })).toBe(true);
    await bad({ default_provider_sort: "cheapest" }, "default_provider_sort");
    expect(await ok({ io_logging_sampling_rate: 0.0001 })).toBe(true);
    expect(await ok({ io_logging_sampling_rate: 1 })).toBe(true);
    await bad({ io_logging_sampling_rate: 0.00009 }, "io_logging_sampling_rate");
    await bad({ io_logging_sampling_rate: 1.0001 }, "io_logging_sampling_rate");
    await bad({ unknown_field: 1 }, "unknown_field");
    const missing = await call("POST", "/api/v1/workspaces", { name: "N" });
    expect(missing.status).toBe(400);
    expect(missing.body.error.metadata.field).toBe("slug");
  });

  test("patch applies the same bounds", async () => {
    const ws = await createWs();
    for (const body of [
      { name: "x".repeat(101) },
      { slug: "s".repeat(51) },
      { description: "d".repeat(501) },
      { io_logging_sampling_rate: 0 },
      { nope: true },
    ]) {
      expect((await call("PATCH", `/api/v1/workspaces/${ws.id}`, body)).status).toBe(400);
    }
    expect((await call("PATCH", `/api/v1/workspaces/${ws.id}`, { name: "x".repeat(100), slug: `z${"s".repeat(49)}` })).status).toBe(200);
  });

  test("list paginates with offset and limit 1..100 and reports total_count", async () => {
    const all = await call("GET", "/api/v1/workspaces?limit=100");
    expect(all.status).toBe(200);
    const total = all.body.total_count;
    expect(total).toBe(all.body.data.length);
    expect(total).toBeGreaterThan(3);
    const page = await call("GET", "/api/v1/workspaces?offset=1&limit=2");
    expect(page.body).toEqual({ data: all.body.data.slice(1, 3), total_count: total });
    expect((await call("GET", "/api/v1/workspaces?limit=1")).body.data.length).toBe(1);
    expect((await call("GET", "/api/v1/workspaces")).body.data.length).toBe(Math.min(50, total));
    for (const q of ["limit=0", "limit=101", "offset=-1", "limit=abc"]) expect((await call("GET", `/api/v1/workspaces?${q}`)).status).toBe(400);
    expect(all.body.data[0].slug).toBe("default");
  });

  test("delete is refused (409) while the workspace has active keys, then allowed", async () => {
    const ws = await createWs();
    const { hash } = await createInferenceKey(gw, { workspace_id: ws.id });
    const res = await call("DELETE", `/api/v1/workspaces/${ws.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error.metadata).toEqual({ active_keys: 1 });
    await call("PATCH", `/api/v1/keys/${hash}`, { disabled: true });
    expect((await call("DELETE", `/api/v1/workspaces/${ws.id}`)).status).toBe(200);
  });

  test("the default workspace needs confirm_default_workspace_deletion, and still its keys block it", async () => {
    const res = await call("DELETE", "/api/v1/workspaces/default");
    expect(res.status).toBe(400);
    expect(res.body.error.metadata.field).toBe("confirm_default_workspace_deletion");
    expect((await call("DELETE", "/api/v1/workspaces/default?confirm_default_workspace_deletion=true")).status).toBe(409);
  });

  test("management routes refuse inference keys (403) and missing keys (401)", async () => {
    const { key } = await createInferenceKey(gw);
    expect((await call("GET", "/api/v1/workspaces", undefined, key)).status).toBe(403);
    expect((await gw.api("/api/v1/workspaces", { key: null })).status).toBe(401);
  });
});
