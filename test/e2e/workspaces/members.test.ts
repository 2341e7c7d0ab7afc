import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function call(method: string, path: string, json?: unknown, key?: string) {
  const res = await gw.api(path, { method, json, key });
  return { status: res.status, body: (await res.json()) as any };
}

async function addUser(body: Record<string, unknown>) {
  const res = await call("POST", "/api/v1/organization/members", body);
  if (res.status !== 201) throw new Error(`add user: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

let n = 0;
async function createWs() {
  n += 1;
  return (await call("POST", "/api/v1/workspaces", { name: `M ${n}`, slug: `m-${n}` })).body.data;
}

describe("organization members", () => {
  test("create with an id returns 201 and the user; without one an id is generated", async () => {
    const res = await call("POST", "/api/v1/organization/members", { id: "alice", email: "alice@example.com", name: "Alice Liddell", role: "admin" });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: "alice",
      email: "alice@example.com",
      name: "Alice Liddell",
      first_name: "Alice",
      last_name: "Liddell",
      role: "admin",
      created_at: res.body.data.created_at,
    });
    const gen = await addUser({ role: "member" });
    expect(gen.id).toMatch(UUID);
    expect(gen).toMatchObject({ email: null, name: null, first_name: null, last_name: null, role: "member" });
  });

  test("a duplicate id is 409; role must be admin or member; unknown fields are 400", async () => {
    await addUser({ id: "dup", role: "member" });
    expect((await call("POST", "/api/v1/organization/members", { id: "dup", role: "member" })).status).toBe(409);
    for (const body of [
      { role: "owner" },
      { role: "boss" },
      {},
      { role: "member", extra: 1 },
      { role: "member", email: "not-an-email" },
      { role: "member", id: "" },
    ]) {
      expect((await call("POST", "/api/v1/organization/members", body)).status).toBe(400);
    }
  });

  test("list returns every user with total_count and paginates", async () => {
    const all = await call("GET", "/api/v1/organization/members?limit=100");
    expect(all.status).toBe(200);
    expect(all.body.total_count).toBe(all.body.data.length);
    expect(all.body.data[0]).toMatchObject({ id: "owner", role: "owner" });
    expect(all.body.data.map((u: any) => u.id)).toContain("alice");
    const page = await call("GET", "/api/v1/organization/members?offset=1&limit=1");
    expect(page.body).toEqual({ data: [all.body.data[1]], total_count: all.body.total_count });
    for (const q of ["limit=0", "limit=101", "offset=-1"]) expect((await call("GET", `/api/v1/organization/members?${q}`)).status).toBe(400);
  });

  test("management key only", async () => {
    const { key } = await createInferenceKey(gw);
    expect((await call("GET", "/api/v1/organization/members", undefined, key)).status).toBe(403);
    expect((await call("POST", "/api/v1/organization/members", { role: "member" }, key)).status).toBe(403);
  });
});

describe("workspace members", () => {
  test("add gives members their organization role; added_count counts created or updated memberships", async () => {
    const ws = await createWs();
    const admin = await addUser({ role: "admin" });
    const member = await addUser({ role: "member" });
    const res = await call("POST", `/api/v1/workspaces/${ws.id}/members/add`, { user_ids: [admin.id, member.id, member.id] });
    expect(res.status).toBe(200);
    expect(res.body.added_count).toBe(2);
    expect(res.body.data.map((m: any) => [m.user_id, m.role, m.workspace_id])).toEqual([
      [admin.id, "admin", ws.id],
      [member.id, "member", ws.id],
    ]);
    expect(res.body.data[0].id).toMatch(UUID);
    const list = await call("GET", `/api/v1/workspaces/${ws.slug}/members`);
    expect(list.body).toEqual({ data: res.body.data, total_count: 2 });
    // adding again keeps the membership (same id) and counts it as updated
    const again = await call("POST", `/api/v1/workspaces/${ws.slug}/members/add`, { user_ids: [admin.id] });
    expect(again.body).toEqual({ added_count: 1, data: [res.body.data[0]] });
  });

  test("unknown user ids are a 400 naming them, and nothing is added", async () => {
    const ws = await createWs();
    const u = await addUser({ role: "member" });
    const res = await call("POST", `/api/v1/workspaces/${ws.id}/members/add`, { user_ids: [u.id, "ghost-1", "ghost-2"] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("Unknown user id(s): ghost-1, ghost-2");
    expect(res.body.error.metadata.unknown_user_ids).toEqual(["ghost-1", "ghost-2"]);
    expect((await call("GET", `/api/v1/workspaces/${ws.id}/members`)).body.total_count).toBe(0);
  });

  test("user_ids takes 1 to 100 entries", async () => {
    const ws = await createWs();
    const ids = ["owner", ...Array.from({ length: 99 }, (_, i) => `bulk-${i}`)];
    for (const id of ids.slice(1)) await addUser({ id, role: "member" });
    const full = await call("POST", `/api/v1/workspaces/${ws.id}/members/add`, { user_ids: ids });
    expect(full.status).toBe(200);
    expect(full.body.added_count).toBe(100);
    expect((await call("POST", `/api/v1/workspaces/${ws.id}/members/add`, { user_ids: [...ids, "one-more"] })).status).toBe(400);
    expect((await call("POST", `/api/v1/workspaces/${ws.id}/members/add`, { user_ids: [] })).status).toBe(400);
    expect((await call("POST", `/api/v1/workspaces/${ws.id}/members/remove`, { user_ids: [...ids, "x"] })).status).toBe(400);
    expect((await call("POST", `/api/v1/workspaces/${ws.id}/members/remove`, { user_ids: [] })).status).toBe(400);
    const page = await call("GET", `/api/v1/workspaces/${ws.id}/members?offset=98&limit=100`);
    expect(page.body.total_count).toBe(100);
    expect(page.body.data.length).toBe(2);
    for (const q of ["limit=0", "limit=101"]) expect((await call("GET", `/api/v1/workspaces/${ws.id}/members?${q}`)).status).toBe(400);
    const removed = await call("POST", `/api/v1/workspaces/${ws.id}/members/remove`, { user_ids: ids });
    expect(removed.body).toEqual({ removed_count: 100 });
  });

  test("remove counts removed members; a member with active keys in the workspace is a 409 naming them", async () => {
    const ws = await createWs();
    const keeper = await addUser({ role: "member" });
    const leaver = await addUser({ role: "member" });
    await call("POST", `/api/v1/workspaces/${ws.id}/members/add`, { user_ids: [keeper.id, leaver.id] });
    const { hash } = await createInferenceKey(gw, { workspace_id: ws.id, creator_user_id: keeper.id });
    const blocked = await call("POST", `/api/v1/workspaces/${ws.id}/members/remove`, { user_ids: [leaver.id, keeper.id] });
    expect(blocked.status).toBe(409);
    expect(blocked.body.error).toEqual({
      code: 409,
      message: `Cannot remove member(s) with active API keys in this workspace: ${keeper.id}`,
      metadata: { user_ids: [keeper.id] },
    });
    expect((await call("GET", `/api/v1/workspaces/${ws.id}/members`)).body.total_count).toBe(2);
    expect((await call("POST", `/api/v1/workspaces/${ws.id}/members/remove`, { user_ids: [leaver.id, "not-a-member"] })).body).toEqual({ removed_count: 1 });
    // a key in another workspace does not block; a deleted key no longer does
    await call("DELETE", `/api/v1/keys/${hash}`);
    expect((await call("POST", `/api/v1/workspaces/${ws.id}/members/remove`, { user_ids: [keeper.id] })).body).toEqual({ removed_count: 1 });
    expect((await call("GET", `/api/v1/workspaces/${ws.id}/members`)).body).toEqual({ data: [], total_count: 0 });
  });

  test("the default workspace lists every organization user", async () => {
    const users = await call("GET", "/api/v1/organization/members?limit=100");
    const members = await call("GET", "/api/v1/workspaces/default/members?limit=100");
    expect(members.body.total_count).toBe(users.body.total_count);
    expect(members.body.data.map((m: any) => m.user_id)).toEqual(users.body.data.map((u: any) => u.id));
    expect(members.body.data[0]).toMatchObject({ user_id: "owner", role: "admin" });
    expect(members.body.data[0].id).toMatch(UUID);
    const again = await call("GET", "/api/v1/workspaces/default/members?limit=1");
    expect(again.body.data[0]).toEqual(members.body.data[0]);
  });

  test("member routes of an unknown workspace are 404", async () => {
    expect((await call("GET", "/api/v1/workspaces/nope/members")).status).toBe(404);
    expect((await call("POST", "/api/v1/workspaces/nope/members/add", { user_ids: ["owner"] })).status).toBe(404);
    expect((await call("POST", "/api/v1/workspaces/nope/members/remove", { user_ids: ["owner"] })).status).toBe(404);
  });
});
