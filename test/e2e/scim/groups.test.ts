// SCIM 2.0 Groups (RFC 7644) with raw fetch, in the RFC's shapes and Okta's and Entra ID's PATCH
// shapes, and OpenRouter's group mappings: a mapped group's members join the workspace with the
// mapping's role and leave it with the group; keep_members; a sync job; memberships made by hand stay.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestGateway, type TestGateway } from "../../support/gateway";

let gw: TestGateway;
let token = "";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const LIST = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";

async function scim(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${gw.url}/scim/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { "content-type": "application/scim+json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function api(method: string, path: string, json?: unknown): Promise<{ status: number; body: any }> {
  const res = await gw.api(path, { method, json });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const memberIds = (group: any) => (group.members ?? []).map((m: any) => m.value).sort();
async function rolesIn(workspace: string): Promise<Record<string, string>> {
  const res = await api("GET", `/api/v1/workspaces/${workspace}/members?limit=100`);
  expect(res.status).toBe(200);
  return Object.fromEntries(res.body.data.map((m: any) => [m.user_id, m.role]));
}

const users = { ann: "", ben: "", cat: "", dan: "" };
let teamId = "";

beforeAll(async () => {
  gw = await startTestGateway();
  token = ((await api("POST", "/api/v1/scim/tokens", { name: "Okta" })).body as any).token;
  for (const name of ["ann", "ben", "cat", "dan"] as const) {
    const made = await scim("POST", "/Users", { schemas: [USER], userName: `${name}@example.com`, name: { givenName: name, familyName: "X" } });
    expect(made.status).toBe(201);
    users[name] = made.body.id;
  }
  teamId = (await api("POST", "/api/v1/workspaces", { name: "Team", slug: "team" })).body.data.id;
});
afterAll(async () => {
  await gw?.close();
});

describe("SCIM Groups", () => {
  let groupId = "";

  test("POST /Groups (RFC 7644, section 3.3): 201 with members, Location, and the user shows the group", async () => {
    const res = await scim("POST", "/Groups", { schemas: [GROUP], displayName: "Engineering", externalId: "eng-1", members: [{ value: users.ann }] });
    expect(res.status).toBe(201);
    groupId = res.body.id;
    expect(res.body).toEqual({
      schemas: [GROUP],
      id: groupId,
      externalId: "eng-1",
      displayName: "Engineering",
      members: [{ value: users.ann, display: "ann X", $ref: `${gw.url}/scim/v2/Users/${users.ann}` }],
      meta: {
        resourceType: "Group",
        created: res.body.meta.created,
        lastModified: res.body.meta.lastModified,
        location: `${gw.url}/scim/v2/Groups/${groupId}`,
      },
    });
    const user = await scim("GET", `/Users/${users.ann}`);
    expect(user.body.groups).toEqual([{ value: groupId, display: "Engineering", $ref: `${gw.url}/scim/v2/Groups/${groupId}` }]);
    expect((await scim("GET", `/Groups/${groupId}`)).body).toEqual(res.body);
  });

  test("Okta's PATCH: add members with a value array, remove one by a members[value eq] path, rename by replace", async () => {
    const add = await scim("PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: "add", path: "members", value: [{ value: users.ben }, { value: users.cat }] }],
    });
    expect([add.status, memberIds(add.body)]).toEqual([200, [users.ann, users.ben, users.cat].sort()]);
    const remove = await scim("PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: "remove", path: `members[value eq "${users.cat}"]` }],
    });
    expect(memberIds(remove.body)).toEqual([users.ann, users.ben].sort());
    const rename = await scim("PATCH", `/Groups/${groupId}`, { schemas: [PATCH], Operations: [{ op: "replace", value: { id: groupId, displayName: "Eng" } }] });
    expect([rename.body.displayName, memberIds(rename.body)]).toEqual(["Eng", [users.ann, users.ben].sort()]);
  });

  test("Entra's PATCH: capitalised ops, path members with a value array to remove, displayName replaced by path", async () => {
    const add = await scim("PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: "Add", path: "members", value: [{ value: users.dan }] }],
    });
    expect(memberIds(add.body)).toEqual([users.ann, users.ben, users.dan].sort());
    const remove = await scim("PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: "Remove", path: "members", value: [{ value: users.dan }] }],
    });
    expect(memberIds(remove.body)).toEqual([users.ann, users.ben].sort());
    const rename = await scim("PATCH", `/Groups/${groupId}`, { schemas: [PATCH], Operations: [{ op: "Replace", path: "displayName", value: "Engineering" }] });
    expect(rename.body.displayName).toBe("Engineering");
  });

  test("list: displayName eq filter, startIndex and count, excludedAttributes=members", async () => {
    const other = await scim("POST", "/Groups", { schemas: [GROUP], displayName: "Sales" });
    expect([other.status, other.body.members]).toEqual([201, []]);
    const all = await scim("GET", "/Groups");
    expect([all.body.schemas, all.body.totalResults, all.body.Resources.map((g: any) => g.displayName)]).toEqual([[LIST], 2, ["Engineering", "Sales"]]);
    const filtered = await scim("GET", `/Groups?filter=${encodeURIComponent('displayName eq "Sales"')}`);
    expect([filtered.body.totalResults, filtered.body.Resources[0].id]).toEqual([1, other.body.id]);
    const page = await scim("GET", "/Groups?startIndex=2&count=1&excludedAttributes=members");
    expect([page.body.totalResults, page.body.itemsPerPage, page.body.startIndex, page.body.Resources[0].displayName, page.body.Resources[0].members]).toEqual([
      2,
      1,
      2,
      "Sales",
      undefined,
    ]);
    expect((await scim("DELETE", `/Groups/${other.body.id}`)).status).toBe(204);
    expect((await scim("GET", `/Groups/${other.body.id}`)).status).toBe(404);
  });

  test("errors in SCIM's shape: no displayName, an unknown member, a bad filter, an unknown group", async () => {
    const missing = await scim("POST", "/Groups", { schemas: [GROUP] });
    expect([missing.status, missing.body.schemas, missing.body.scimType]).toEqual([400, [ERROR], "invalidValue"]);
    const unknown = await scim("PATCH", `/Groups/${groupId}`, { schemas: [PATCH], Operations: [{ op: "add", path: "members", value: [{ value: "nobody" }] }] });
    expect([unknown.status, unknown.body.scimType]).toEqual([400, "invalidValue"]);
    const filter = await scim("GET", `/Groups?filter=${encodeURIComponent("displayName eq")}`);
    expect([filter.status, filter.body.scimType]).toEqual([400, "invalidFilter"]);
    expect((await scim("PUT", "/Groups/nope", { schemas: [GROUP], displayName: "x" })).status).toBe(404);
  });

  test("PUT replaces the members as a whole", async () => {
    const res = await scim("PUT", `/Groups/${groupId}`, {
      schemas: [GROUP],
      displayName: "Engineering",
      members: [{ value: users.ann }, { value: users.ben }],
    });
    expect([res.status, memberIds(res.body), res.body.externalId]).toEqual([200, [users.ann, users.ben].sort(), undefined]);
  });
});

describe("group mappings (OpenRouter's scim.*)", () => {
  let groupId = "";
  let mappingId = "";

  beforeAll(async () => {
    groupId = (await scim("POST", "/Groups", { schemas: [GROUP], displayName: "Mapped", members: [{ value: users.ann }, { value: users.ben }] })).body.id;
    // dan is a member by hand: no mapping ever touches him
    expect((await api("POST", "/api/v1/workspaces/team/members/add", { user_ids: [users.dan] })).status).toBe(200);
  });

  test("GET /api/v1/scim/groups lists the SCIM Groups with the same ids", async () => {
    const res = await api("GET", "/api/v1/scim/groups?limit=100");
    const mapped = res.body.data.find((g: any) => g.id === groupId);
    expect([res.status, res.body.total_count, mapped]).toEqual([
      200,
      2,
      {
        id: groupId,
        display_name: "Mapped",
        external_id: null,
        organization_id: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
  });

  test("a mapping makes the group's members workspace members with its role; joining and leaving the group follow", async () => {
    const made = await api("POST", "/api/v1/scim/group-mappings", { scim_group_id: groupId, workspace_id: teamId, role: "admin" });
    expect(made.status).toBe(201);
    mappingId = made.body.data.id;
    expect(made.body.data).toEqual({
      id: mappingId,
      scim_group_id: groupId,
      workspace_id: teamId,
      role: "admin",
      organization_id: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await rolesIn("team")).toEqual({ [users.ann]: "admin", [users.ben]: "admin", [users.dan]: "member" });
    await scim("PATCH", `/Groups/${groupId}`, { schemas: [PATCH], Operations: [{ op: "remove", path: `members[value eq "${users.ben}"]` }] });
    await scim("PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: "Add", path: "members", value: [{ value: users.cat }, { value: users.dan }] }],
    });
    // dan was a member by hand: his role stays what it was
    expect(await rolesIn("team")).toEqual({ [users.ann]: "admin", [users.cat]: "admin", [users.dan]: "member" });
    const again = await api("POST", "/api/v1/scim/group-mappings", { scim_group_id: groupId, workspace_id: teamId, role: "member" });
    expect(again.status).toBe(409);
  });

  test("PATCH a mapping's role; list and get; bad input named", async () => {
    const res = await api("PATCH", `/api/v1/scim/group-mappings/${mappingId}`, { role: "member" });
    expect([res.status, res.body.data.role]).toEqual([200, "member"]);
    expect(await rolesIn("team")).toEqual({ [users.ann]: "member", [users.cat]: "member", [users.dan]: "member" });
    expect((await api("GET", "/api/v1/scim/group-mappings")).body).toEqual({ data: [res.body.data], total_count: 1 });
    expect((await api("GET", `/api/v1/scim/group-mappings/${mappingId}`)).body).toEqual({ data: res.body.data });
    const bad = await api("POST", "/api/v1/scim/group-mappings", { scim_group_id: "nope", workspace_id: teamId, role: "member" });
    expect(bad.status).toBe(404);
    const noKeep = await api("DELETE", `/api/v1/scim/group-mappings/${mappingId}`);
    expect([noKeep.status, noKeep.body.error.metadata.field]).toEqual([400, "keep_members"]);
  });

  test("deleting the group removes the memberships its mapping made, never the hand-made one", async () => {
    const temp = (await scim("POST", "/Groups", { schemas: [GROUP], displayName: "Temp", members: [{ value: users.ben }] })).body.id;
    const mapping = (await api("POST", "/api/v1/scim/group-mappings", { scim_group_id: temp, workspace_id: teamId, role: "member" })).body.data.id;
    expect(Object.keys(await rolesIn("team")).sort()).toEqual([users.ann, users.ben, users.cat, users.dan].sort());
    expect((await scim("DELETE", `/Groups/${temp}`)).status).toBe(204);
    expect(Object.keys(await rolesIn("team")).sort()).toEqual([users.ann, users.cat, users.dan].sort());
    expect((await api("DELETE", `/api/v1/scim/group-mappings/${mapping}?keep_members=false`)).status).toBe(200);
  });

  test("keep_members=true leaves the memberships (then made by hand); a sync job re-applies mappings and succeeds", async () => {
    expect((await api("DELETE", `/api/v1/scim/group-mappings/${mappingId}?keep_members=true`)).body).toEqual({ deleted: true });
    await scim("PATCH", `/Groups/${groupId}`, { schemas: [PATCH], Operations: [{ op: "remove", path: `members[value eq "${users.cat}"]` }] });
    expect(Object.keys(await rolesIn("team")).sort()).toEqual([users.ann, users.cat, users.dan].sort());
    mappingId = (await api("POST", "/api/v1/scim/group-mappings", { scim_group_id: groupId, workspace_id: teamId, role: "admin" })).body.data.id;
    // ann is a member by hand since keep_members: the new mapping leaves her role alone
    expect((await rolesIn("team"))[users.ann]).toBe("member");
    const job = await api("POST", "/api/v1/scim/sync-jobs");
    expect([job.status, job.body.data.status]).toEqual([202, "queued"]);
    let state: any = job.body.data;
    for (let i = 0; i < 50 && (state.status === "queued" || state.status === "running"); i++) {
      await Bun.sleep(20);
      state = (await api("GET", `/api/v1/scim/sync-jobs/${job.body.data.id}`)).body.data;
    }
    expect([state.status, state.synced_groups, state.error_message, typeof state.finished_at]).toEqual(["succeeded", 2, null, "string"]);
    expect((await api("DELETE", `/api/v1/scim/group-mappings/${mappingId}?keep_members=false`)).status).toBe(200);
    expect(Object.keys(await rolesIn("team")).sort()).toEqual([users.ann, users.cat, users.dan].sort());
  });

  test("every change is audited: groups, mappings, and the memberships a mapping made", async () => {
    const res = await api("GET", "/api/v1/audit-logs?limit=500");
    const actions = res.body.data.map((e: any) => e.action);
    for (const action of ["scim_group.create", "scim_group.update", "scim_group.delete", "scim_mapping.create", "scim_mapping.update", "scim_mapping.delete"])
      expect(actions).toContain(action);
    const [deleted] = res.body.data.filter((e: any) => e.action === "scim_mapping.delete");
    expect([deleted.actor.type, deleted.changes]).toEqual([
      "key",
      {
        scim_group_id: { from: groupId, to: null },
        workspace_id: { from: teamId, to: null },
        role: { from: "admin", to: null },
        keep_members: { from: null, to: false },
      },
    ]);
    const joined = res.body.data.find((e: any) => e.action === "member.add" && e.target.id === users.cat);
    expect([joined.actor.type, joined.workspace_id, joined.changes]).toEqual([
      "scim",
      teamId,
      { user_id: { from: null, to: users.cat }, role: { from: null, to: "admin" } },
    ]);
  });
});
