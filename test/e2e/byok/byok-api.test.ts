import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createLogger } from "../../../src/logger";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import type { MockUpstream } from "../../support/mock-upstream";
import { byokYaml, chat, createByok, keyCheckingUpstream } from "./helpers";

let gw: TestGateway;
let up: MockUpstream;
let keysSeen: (from?: number) => string[];
const logLines: string[] = [];
/** every raw key this file sends; none may come back, be logged or be stored */
const rawKeys: string[] = [];
const responses: string[] = [];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

beforeAll(async () => {
  ({ up, keysSeen } = await keyCheckingUpstream());
  gw = await startTestGateway({ yaml: byokYaml(up.url) });
  gw.ctx.logger = createLogger("debug", (line) => logLines.push(line));
});
afterAll(async () => {
  await gw.close();
  await up.stop();
});

function raw(tag: string): string {
  const key = `sk-raw-${tag}-${crypto.randomUUID().replaceAll("-", "")}`;
  rawKeys.push(key);
  return key;
}

async function call(method: string, path: string, json?: unknown) {
  const res = await gw.api(path, { method, json });
  const text = await res.text();
  responses.push(text);
  return { status: res.status, body: JSON.parse(text) as any };
}

const defaultWorkspaceId = async () => (await call("GET", "/api/v1/workspaces/default")).body.data.id as string;

describe("BYOK credentials API", () => {
  test("create returns 201 with every BYOKKey field, a masked label and never the key", async () => {
    const key = raw("create");
    const res = await call("POST", "/api/v1/byok", { provider: "mock", key, name: "Team key" });
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data.id).toMatch(UUID);
    expect(data).toEqual({
      id: data.id,
      provider: "mock",
      name: "Team key",
      label: `${key.slice(0, 4)}...${key.slice(-4)}`,
      disabled: false,
      is_fallback: false,
      is_required: false,
      is_byok_only: false,
      declared_zdr: null,
      allowed_models: null,
      allowed_user_ids: null,
      allowed_api_key_hashes: null,
      sort_order: 0,
      workspace_id: await defaultWorkspaceId(),
      created_at: data.created_at,
    });
    expect((await call("GET", `/api/v1/byok/${data.id}`)).body.data).toEqual(data);
  });

  test("every optional field is stored and echoed", async () => {
    const ws = (await call("POST", "/api/v1/workspaces", { name: "Opts", slug: "opts" })).body.data;
    const body = {
      provider: "solo",
      key: raw("opts"),
      name: null,
      workspace_id: "opts",
      disabled: true,
      is_fallback: true,
      is_required: true,
      declared_zdr: true,
      allowed_models: ["test/solo"],
      allowed_user_ids: ["owner"],
      allowed_api_key_hashes: ["a".repeat(64)],
    };
    const res = await call("POST", "/api/v1/byok", body);
    expect(res.status).toBe(201);
    const { key: _key, ...rest } = body;
    expect(res.body.data).toMatchObject({ ...rest, workspace_id: ws.id, is_byok_only: false, sort_order: 0 });
  });

  test("provider must be one the gateway knows; workspace_id must exist", async () => {
    const unknown = await call("POST", "/api/v1/byok", { provider: "nonexistent", key: raw("p") });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toEqual({ code: 400, message: "Invalid field 'provider': unknown provider 'nonexistent'", metadata: { field: "provider" } });
    const ws = await call("POST", "/api/v1/byok", { provider: "mock", key: raw("w"), workspace_id: "no-such-workspace" });
    expect(ws.status).toBe(400);
    expect(ws.body.error.metadata).toEqual({ field: "workspace_id" });
  });

  test("field bounds: at the limit passes, just past it is 400", async () => {
    const ok = async (extra: Record<string, unknown>) =>
      expect((await call("POST", "/api/v1/byok", { provider: "mock", key: raw("b"), ...extra })).status).toBe(201);
    const bad = async (extra: Record<string, unknown>, field: string) => {
      const res = await call("POST", "/api/v1/byok", { provider: "mock", key: raw("b"), ...extra });
      expect(res.status).toBe(400);
      expect(res.body.error.metadata.field).toBe(field);
    };
    const list = (n: number) => Array.from({ length: n }, (_, i) => `item-${i}`);
    await ok({ name: "n".repeat(255) });
    await bad({ name: "n".repeat(256) }, "name");
    await ok({ key: "k" });
    await bad({ key: "" }, "key");
    await ok({ allowed_models: list(100), allowed_user_ids: list(100), allowed_api_key_hashes: list(100) });
    await ok({ allowed_models: [], allowed_user_ids: [], allowed_api_key_hashes: ["h"] });
    await bad({ allowed_models: list(101) }, "allowed_models");
    await bad({ allowed_user_ids: list(101) }, "allowed_user_ids");
    await bad({ allowed_api_key_hashes: list(101) }, "allowed_api_key_hashes");
    await bad({ allowed_api_key_hashes: [] }, "allowed_api_key_hashes");
    await bad({ is_fallback: true, is_byok_only: true }, "is_fallback");
    await bad({ surprise: 1 }, "surprise");
    const missing = await call("POST", "/api/v1/byok", { provider: "mock" });
    expect(missing.status).toBe(400);
    expect(missing.body.error.metadata.field).toBe("key");
  });

  test("sort_order counts up per workspace and provider", async () => {
    const ws = (await call("POST", "/api/v1/workspaces", { name: "Order", slug: "order" })).body.data;
    const a = await createByok(gw, { key: raw("o1"), workspace_id: ws.id });
    const b = await createByok(gw, { key: raw("o2"), workspace_id: ws.id });
    const c = await createByok(gw, { provider: "solo", key: raw("o3"), workspace_id: ws.id });
    expect([a.sort_order, b.sort_order, c.sort_order]).toEqual([0, 1, 0]);
  });

  test("list filters by workspace_id (UUID or slug) and provider, paginates and counts", async () => {
    const ws = (await call("POST", "/api/v1/workspaces", { name: "Listing", slug: "listing" })).body.data;
    const made = [
      await createByok(gw, { key: raw("l1"), workspace_id: ws.id }),
      await createByok(gw, { key: raw("l2"), workspace_id: ws.id }),
      await createByok(gw, { provider: "solo", key: raw("l3"), workspace_id: ws.id }),
    ];
    const all = await call("GET", `/api/v1/byok?workspace_id=${ws.id}`);
    expect(all.body).toEqual({ data: [made[0], made[1], made[2]], total_count: 3 });
    expect((await call("GET", "/api/v1/byok?workspace_id=listing&provider=solo")).body).toEqual({ data: [made[2]], total_count: 1 });
    expect((await call("GET", `/api/v1/byok?workspace_id=${ws.id}&offset=1&limit=1`)).body).toEqual({ data: [made[1]], total_count: 3 });
    const everything = await call("GET", "/api/v1/byok?limit=100");
    expect(everything.body.total_count).toBeGreaterThan(3);
    expect(everything.body.data.length).toBe(Math.min(100, everything.body.total_count));
    for (const q of ["limit=0", "limit=101", "offset=-1", "provider=nonexistent", "workspace_id=nope"]) {
      expect((await call("GET", `/api/v1/byok?${q}`)).status).toBe(400);
    }
    expect((await call("GET", "/api/v1/byok?limit=100")).status).toBe(200);
    expect((await call("GET", "/api/v1/byok?limit=1")).body.data.length).toBe(1);
  });

  test("patch updates fields, keeps the flags compatible, and 404s for unknown ids", async () => {
    const cred = await createByok(gw, { key: raw("patch") });
    const res = await call("PATCH", `/api/v1/byok/${cred.id}`, { name: "renamed", disabled: true, allowed_models: ["test/alpha"], declared_zdr: false });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...cred, name: "renamed", disabled: true, allowed_models: ["test/alpha"], declared_zdr: false });
    expect((await call("PATCH", `/api/v1/byok/${cred.id}`, { is_byok_only: true })).status).toBe(200);
    const clash = await call("PATCH", `/api/v1/byok/${cred.id}`, { is_fallback: true });
    expect(clash.status).toBe(400);
    expect((await call("PATCH", `/api/v1/byok/${cred.id}`, { provider: "solo" })).status).toBe(400);
    expect((await call("PATCH", `/api/v1/byok/${cred.id}`, { name: "n".repeat(256) })).status).toBe(400);
    expect((await call("PATCH", `/api/v1/byok/${cred.id}`, { key: "" })).status).toBe(400);
    expect((await call("PATCH", `/api/v1/byok/${crypto.randomUUID()}`, { name: "x" })).status).toBe(404);
  });

  test("rotation: patch with key changes the label and the key the upstream receives", async () => {
    const ws = (await call("POST", "/api/v1/workspaces", { name: "Rotate", slug: "rotate" })).body.data;
    const first = raw("first");
    const cred = await createByok(gw, { key: first, workspace_id: ws.id });
    const { key: apiKey } = await createInferenceKey(gw, { workspace_id: ws.id });
    const before = up.requests.length;
    expect((await chat(gw, apiKey)).status).toBe(200);
    const second = raw("second");
    const rotated = await call("PATCH", `/api/v1/byok/${cred.id}`, { key: second });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.label).toBe(`${second.slice(0, 4)}...${second.slice(-4)}`);
    expect(rotated.body.data.label).not.toBe(cred.label);
    expect(rotated.body.data).toEqual({ ...cred, label: rotated.body.data.label });
    expect((await chat(gw, apiKey)).status).toBe(200);
    expect(keysSeen(before)).toEqual([first, second]);
  });

  test("delete is soft: the credential is gone from get, list, patch and routing", async () => {
    const ws = (await call("POST", "/api/v1/workspaces", { name: "Del", slug: "del" })).body.data;
    const cred = await createByok(gw, { key: raw("del"), workspace_id: ws.id });
    expect(await call("DELETE", `/api/v1/byok/${cred.id}`)).toEqual({ status: 200, body: { deleted: true } });
    expect((await call("GET", `/api/v1/byok/${cred.id}`)).status).toBe(404);
    expect((await call("PATCH", `/api/v1/byok/${cred.id}`, { name: "x" })).status).toBe(404);
    expect((await call("DELETE", `/api/v1/byok/${cred.id}`)).status).toBe(404);
    expect((await call("GET", `/api/v1/byok?workspace_id=${ws.id}`)).body).toEqual({ data: [], total_count: 0 });
    const { key } = await createInferenceKey(gw, { workspace_id: ws.id });
    const before = up.requests.length;
    await chat(gw, key);
    expect(keysSeen(before)).toEqual(["gateway-own-key"]);
  });

  test("management key only", async () => {
    const cred = await createByok(gw, { key: raw("auth") });
    const { key } = await createInferenceKey(gw);
    for (const [method, path] of [
      ["GET", "/api/v1/byok"],
      ["POST", "/api/v1/byok"],
      ["GET", `/api/v1/byok/${cred.id}`],
      ["PATCH", `/api/v1/byok/${cred.id}`],
      ["DELETE", `/api/v1/byok/${cred.id}`],
    ] as const) {
      const res = await gw.api(path, { method, key, json: method === "POST" ? { provider: "mock", key: "x" } : method === "PATCH" ? { key: "x" } : undefined });
      expect(res.status).toBe(403);
    }
  });

  test("no raw key appears in any response, log line or file of the data directory", async () => {
    expect(rawKeys.length).toBeGreaterThan(10);
    const everything = responses.join("\n");
    // the files are read while the gateway runs: WAL pages included
    const files = readdirSync(gw.dir)
      .map((f) => join(gw.dir, f))
      .filter((p) => statSync(p).isFile());
    const contents = files.map((p) => readFileSync(p));
    expect(files.some((p) => p.endsWith("gateway.db"))).toBe(true);
    // the grep itself works: a credential's name is found in the stored bytes
    expect(contents.some((buf) => buf.includes("renamed"))).toBe(true);
    for (const key of rawKeys) {
      expect(everything.includes(key)).toBe(false);
      expect(logLines.some((l) => l.includes(key))).toBe(false);
      for (const buf of contents) expect(buf.includes(key)).toBe(false);
    }
  });

  test("the generated master key file is private (0600)", () => {
    const mode = statSync(join(gw.dir, "master.key")).mode & 0o777;
    expect(mode).toBe(0o600);
  });
});
