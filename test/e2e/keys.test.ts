import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../support/gateway";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

function expectKeyRecord(data: any) {
  expect(Object.keys(data).sort()).toEqual(
    [
      "alert_thresholds",
      "byok_usage",
      "byok_usage_daily",
      "byok_usage_monthly",
      "byok_usage_weekly",
      "created_at",
      "creator_user_id",
      "disabled",
      "expires_at",
      "external_user",
      "hash",
      "include_byok_in_limit",
      "label",
      "limit",
      "limit_remaining",
      "limit_reset",
      "name",
      "rate_limit",
      "updated_at",
      "usage",
      "usage_daily",
      "usage_monthly",
      "usage_weekly",
      "workspace_id",
    ].sort(),
  );
  expect(data.hash).toMatch(/^[0-9a-f]{64}$/);
  expect(data.created_at).toMatch(ISO);
}

describe("keys API", () => {
  test("create returns 201 with the raw key once and every field", async () => {
    const res = await gw.api("/api/v1/keys", {
      method: "POST",
      json: { name: "ci", limit: 12.5, limit_reset: "weekly", include_byok_in_limit: true, expires_at: "2099-01-02T03:04:05Z" },
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as any;
    expect(body.key).toMatch(/^sk-gw-v1-[0-9a-f]{64}$/);
    expectKeyRecord(body.data);
    const digest = new Bun.CryptoHasher("sha256").update(body.key).digest("hex");
    expect(body.data).toMatchObject({
      hash: digest,
      name: "ci",
      label: `sk-gw-v1-${body.key.slice(9, 12)}...${body.key.slice(-3)}`,
      disabled: false,
      limit: 12.5,
      limit_remaining: 12.5,
      limit_reset: "weekly",
      include_byok_in_limit: true,
      usage: 0,
      usage_daily: 0,
      usage_weekly: 0,
      usage_monthly: 0,
      byok_usage: 0,
      byok_usage_daily: 0,
      byok_usage_weekly: 0,
      byok_usage_monthly: 0,
      updated_at: null,
      expires_at: "2099-01-02T03:04:05.000Z",
      creator_user_id: "owner",
      external_user: null,
    });
    expect(body.data.workspace_id).toMatch(/^[0-9a-f-]{36}$/);

    const get = (await (await gw.api(`/api/v1/keys/${digest}`)).json()) as any;
    expect(get.data).toEqual(body.data);
    expect(JSON.stringify(get)).not.toContain(body.key);
  });

  test("list, include_disabled, offset, update and delete round trip", async () => {
    const a = await createInferenceKey(gw, { name: "list-a" });
    const b = await createInferenceKey(gw, { name: "list-b" });
    const names = async (q = "") => ((await (await gw.api(`/api/v1/keys${q}`)).json()) as any).data.map((k: any) => k.name);
    expect(await names()).toContain("list-a");

    const patch = await gw.api(`/api/v1/keys/${a.hash}`, { method: "PATCH", json: { disabled: true, name: "list-a2", limit: 3, limit_reset: "daily" } });
    expect(patch.status).toBe(200);
    const patched = ((await patch.json()) as any).data;
    expectKeyRecord(patched);
    expect(patched).toMatchObject({ name: "list-a2", disabled: true, limit: 3, limit_remaining: 3, limit_reset: "daily" });
    expect(patched.updated_at).toMatch(ISO);

    expect(await names()).not.toContain("list-a2");
    expect(await names("?include_disabled=true")).toContain("list-a2");
    const all = await names("?include_disabled=true");
    expect(await names(`?include_disabled=true&offset=${all.length - 1}`)).toEqual([all[all.length - 1]]);

    const del = await gw.api(`/api/v1/keys/${b.hash}`, { method: "DELETE" });
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ deleted: true });
    expect((await gw.api(`/api/v1/keys/${b.hash}`)).status).toBe(404);
    expect((await gw.api(`/api/v1/keys/${b.hash}`, { method: "DELETE" })).status).toBe(404);
    expect((await gw.api("/api/v1/key", { key: b.key })).status).toBe(401);
  });

  test("GET /key describes the calling inference key", async () => {
    const k = await createInferenceKey(gw, { name: "me", limit: 1 });
    const res = await gw.api("/api/v1/key", { key: k.key });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as any;
    expect(data).toMatchObject({
      label: k.data.label,
      limit: 1,
      limit_remaining: 1,
      limit_reset: null,
      include_byok_in_limit: false,
      usage: 0,
      is_free_tier: false,
      is_management_key: false,
      is_provisioning_key: false,
      creator_user_id: "owner",
      workspace_id: k.data.workspace_id,
      expires_at: null,
      allowed_data_regions: ["global"],
      free_model_daily_requests: { limit: 0, remaining: 0, used: 0 },
    });
    expect(data.organization_id).toMatch(/^org_/);
    expect(data.rate_limit.requests).toBe(-1);
    expect(data.hash).toBeUndefined();
  });

  test("validation errors are 400 and name the field", async () => {
    const cases: Array<[unknown, string]> = [
      [{}, "name"],
      [{ name: 5 }, "name"],
      [{ name: "x", limit: -1 }, "limit"],
      [{ name: "x", limit_reset: "hourly" }, "limit_reset"],
      [{ name: "x", expires_at: "2099-01-01T00:00Z" }, "expires_at"],
      [{ name: "x", expires_at: "2099-01-01T00:00:00+02:00" }, "expires_at"],
      [{ name: "x", expires_at: "2001-01-01T00:00:00Z" }, "expires_at"],
      [{ name: "x", include_byok_in_limit: "yes" }, "include_byok_in_limit"],
    ];
    for (const [json, field] of cases) {
      const res = await gw.api("/api/v1/keys", { method: "POST", json });
      expect(res.status).toBe(400);
      const body = (await res.json()) as any;
      expect(body.error.code).toBe(400);
      expect(body.error.message).toContain(field);
    }
    const k = await createInferenceKey(gw);
    const bad = await gw.api(`/api/v1/keys/${k.hash}`, { method: "PATCH", json: { expires_at: "2099-01-01T00:00:00Z" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.message).toContain("expires_at");
    const badQuery = await gw.api("/api/v1/keys?offset=-1");
    expect(badQuery.status).toBe(400);
    expect(((await badQuery.json()) as any).error.message).toContain("offset");
  });

  test("unknown workspace_id is 404, unknown hash is 404, malformed JSON is 400", async () => {
    expect((await gw.api("/api/v1/keys?workspace_id=00000000-0000-0000-0000-000000000000")).status).toBe(404);
    expect((await gw.api("/api/v1/keys/deadbeef")).status).toBe(404);
    const res = await gw.api("/api/v1/keys", { method: "POST", body: "{not json", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe(400);
  });
});
