import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import type { MockUpstream } from "../../support/mock-upstream";
import { byokYaml, chat, createByok, keyCheckingUpstream } from "../byok/helpers";

/**
 * Workspace B holds a BYOK credential, a key and a generation. Neither an inference key of
 * workspace A nor the management key of another organization (a second gateway with its own
 * database) may read, list, change or use any of it.
 */
let gw: TestGateway;
let other: TestGateway;
let up: MockUpstream;
let keysSeen: (from?: number) => string[];
const OTHER_ORG_ADMIN = "sk-gw-v1-other-organization-admin-key-00000000000000000000";

let wsA: any;
let wsB: any;
let credB: any;
let destB: any;
let keyA: { key: string; hash: string };
let keyB: { key: string; hash: string };
let generationB: string;

beforeAll(async () => {
  ({ up, keysSeen } = await keyCheckingUpstream());
  gw = await startTestGateway({ yaml: byokYaml(up.url) });
  other = await startTestGateway({ yaml: byokYaml(up.url), env: { GATEWAY_ADMIN_KEY: OTHER_ORG_ADMIN } });
  const create = async (slug: string) => ((await (await gw.api("/api/v1/workspaces", { method: "POST", json: { name: slug, slug } })).json()) as any).data;
  wsA = await create("team-a");
  wsB = await create("team-b");
  credB = await createByok(gw, { key: "secret-of-team-b", workspace_id: wsB.id });
  // a public address literal: saved without a lookup; skip_test: nothing listens there
  const dest = await gw.api("/api/v1/observability/destinations?skip_test=true", {
    method: "POST",
    json: {
      type: "webhook",
      name: "hook of b",
      config: { url: "https://93.184.216.34/otlp", headers: { Authorization: "Bearer secret-of-team-b-hook" } },
      workspace_id: wsB.id,
    },
  });
  expect(dest.status).toBe(201);
  destB = ((await dest.json()) as any).data;
  keyA = await createInferenceKey(gw, { workspace_id: wsA.id });
  keyB = await createInferenceKey(gw, { workspace_id: wsB.id });
  const res = await chat(gw, keyB.key);
  generationB = res.headers.get("x-generation-id")!;
  await res.text();
});
afterAll(async () => {
  await gw.close();
  await other.close();
  await up.stop();
});

/** Every route that reads, lists or changes something of workspace B. */
function routesOfB(): Array<[string, string, unknown?]> {
  return [
    ["GET", "/api/v1/workspaces"],
    ["GET", `/api/v1/workspaces/${wsB.id}`],
    ["GET", `/api/v1/workspaces/${wsB.slug}`],
    ["PATCH", `/api/v1/workspaces/${wsB.id}`, { name: "taken over" }],
    ["DELETE", `/api/v1/workspaces/${wsB.id}`],
    ["GET", `/api/v1/workspaces/${wsB.id}/members`],
    ["POST", `/api/v1/workspaces/${wsB.id}/members/add`, { user_ids: ["owner"] }],
    ["POST", `/api/v1/workspaces/${wsB.id}/members/remove`, { user_ids: ["owner"] }],
    ["GET", "/api/v1/byok"],
    ["GET", `/api/v1/byok?workspace_id=${wsB.id}`],
    ["POST", "/api/v1/byok", { provider: "mock", key: "planted", workspace_id: wsB.id }],
    ["GET", `/api/v1/byok/${credB.id}`],
    ["PATCH", `/api/v1/byok/${credB.id}`, { key: "replaced" }],
    ["DELETE", `/api/v1/byok/${credB.id}`],
    ["GET", `/api/v1/keys?workspace_id=${wsB.id}`],
    ["GET", `/api/v1/keys/${keyB.hash}`],
    ["PATCH", `/api/v1/keys/${keyB.hash}`, { disabled: true }],
    ["DELETE", `/api/v1/keys/${keyB.hash}`],
    ["GET", "/api/v1/observability/destinations"],
    ["GET", `/api/v1/observability/destinations?workspace_id=${wsB.id}`],
    [
      "POST",
      "/api/v1/observability/destinations?skip_test=true",
      { type: "webhook", name: "planted", config: { url: "https://93.184.216.34/x" }, workspace_id: wsB.id },
    ],
    ["GET", `/api/v1/observability/destinations/${destB.id}`],
    ["PATCH", `/api/v1/observability/destinations/${destB.id}`, { name: "taken over", config: { url: "https://93.184.216.35/stolen" } }],
    ["DELETE", `/api/v1/observability/destinations/${destB.id}`],
    ["GET", "/api/v1/organization/members"],
    ["POST", "/api/v1/organization/members", { role: "admin" }],
  ];
}

async function expectNothingOfB(key: string, status: number) {
  for (const [method, path, body] of routesOfB()) {
    const res = await gw.api(path, { method, key, json: body });
    const text = await res.text();
    expect({ method, path, status: res.status }).toEqual({ method, path, status });
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed)).toEqual(["error"]);
    for (const secret of [wsB.id, credB.id, credB.label, keyB.hash, "secret-of-team-b", destB.id]) expect(text.includes(secret)).toBe(false);
  }
}

async function expectBUntouched() {
  const ws = ((await (await gw.api(`/api/v1/workspaces/${wsB.id}`)).json()) as any).data;
  expect(ws).toEqual(wsB);
  const cred = ((await (await gw.api(`/api/v1/byok/${credB.id}`)).json()) as any).data;
  expect(cred).toEqual(credB);
  const key = ((await (await gw.api(`/api/v1/keys/${keyB.hash}`)).json()) as any).data;
  expect(key.disabled).toBe(false);
  expect(((await (await gw.api(`/api/v1/byok?workspace_id=${wsB.id}`)).json()) as any).total_count).toBe(1);
  const dest = ((await (await gw.api(`/api/v1/observability/destinations/${destB.id}`)).json()) as any).data;
  expect(dest).toEqual(destB);
  expect(((await (await gw.api(`/api/v1/observability/destinations?workspace_id=${wsB.id}`)).json()) as any).total_count).toBe(1);
}

describe("cross-workspace isolation", () => {
  test("an inference key of workspace A is refused on every route of workspace B, with no data", async () => {
    await expectNothingOfB(keyA.key, 403);
    await expectBUntouched();
  });

  test("an inference key of workspace A gets 404 for B's generation", async () => {
    const res = await gw.api(`/api/v1/generation?id=${generationB}`, { key: keyA.key });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 404, message: `Generation not found: ${generationB}` } });
    expect((await gw.api(`/api/v1/generation?id=${generationB}`, { key: keyB.key })).status).toBe(200);
  });

  test("an inference key of workspace A never uses B's BYOK credential", async () => {
    const before = up.requests.length;
    for (const model of ["test/alpha", "test/beta"]) expect((await chat(gw, keyA.key, { model })).status).toBe(200);
    expect((await chat(gw, keyA.key, { model: "test/solo" })).status).toBe(503);
    expect(keysSeen(before)).toEqual(["gateway-own-key", "gateway-own-key"]);
    const b = up.requests.length;
    await (await chat(gw, keyB.key)).text();
    expect(keysSeen(b)).toEqual(["secret-of-team-b"]);
  });

  test("the management key of another organization is unknown here (401) on every route", async () => {
    const me = (await (await other.api("/api/v1/key", { key: OTHER_ORG_ADMIN })).json()) as any;
    const mine = (await (await gw.api("/api/v1/key")).json()) as any;
    expect(me.data.organization_id).not.toBe(mine.data.organization_id);
    await expectNothingOfB(OTHER_ORG_ADMIN, 401);
    await expectBUntouched();
    // and the other organization sees none of B through its own gateway
    const list = ((await (await other.api("/api/v1/workspaces", { key: OTHER_ORG_ADMIN })).json()) as any).data;
    expect(list.map((w: any) => w.slug)).toEqual(["default"]);
    expect((await other.api(`/api/v1/workspaces/${wsB.slug}`, { key: OTHER_ORG_ADMIN })).status).toBe(404);
    expect((await other.api(`/api/v1/byok/${credB.id}`, { key: OTHER_ORG_ADMIN })).status).toBe(404);
    expect(((await (await other.api("/api/v1/byok", { key: OTHER_ORG_ADMIN })).json()) as any).total_count).toBe(0);
    expect((await other.api(`/api/v1/generation?id=${generationB}`, { key: OTHER_ORG_ADMIN })).status).toBe(404);
    expect((await other.api(`/api/v1/observability/destinations/${destB.id}`, { key: OTHER_ORG_ADMIN })).status).toBe(404);
    expect(((await (await other.api("/api/v1/observability/destinations", { key: OTHER_ORG_ADMIN })).json()) as any).total_count).toBe(0);
  });
});
