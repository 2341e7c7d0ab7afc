// The console's Audit and Groups routes: managers only (a member 403, nobody 401, a change without
// the CSRF token 403); the audit log newest first with the names of who and what and where it came
// from, keyset pages and filters checked against the whole log, validation errors naming the field,
// the chain as `gateway audit verify` checks it (an edited event named), no secret in any event; SCIM
// group mappings through the management API's service: its errors, its audit events.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { gatewayYaml } from "../inference/harness";
import { type ConsoleGateway, PASSWORD, type Person, startConsoleGateway } from "./harness";

type Event = {
  id: string;
  created_at: string;
  actor: { type: string; id: string | null; label: string | null };
  action: string;
  target: { type: string; id: string | null };
  workspace_id: string | null;
  changes: Record<string, { from: unknown; to: unknown }>;
  origin: string;
  actor_name: string;
  target_name: string | null;
  workspace_name: string | null;
};

let cg: ConsoleGateway;
let scimToken = "";
let groupId = "";
const users = { ann: "", ben: "" };
/** every raw secret the test made: none may appear in an event */
const secrets: string[] = [PASSWORD];
let serial = 0;
const fresh = () => `a${++serial}`;
const OWNER = "Owner (owner@example.com)";

async function json<T = any>(res: Response | Promise<Response>): Promise<{ status: number; body: T }> {
  const r = await res;
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}
const consoleCall = (who: Person, method: string, path: string, body?: unknown) => json(cg.call(who, method, path, body));
const apiCall = (method: string, path: string, body?: unknown) => json(cg.gw.api(path, { method, json: body }));
async function scim(method: string, path: string, body: unknown) {
  const res = await fetch(`${cg.gw.url}/scim/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${scimToken}`, "content-type": "application/scim+json" },
    body: JSON.stringify(body),
  });
  return json(res);
}
/** the whole log as the console lists it, newest first */
async function everyEvent(filter = ""): Promise<Event[]> {
  const res = await consoleCall("owner", "GET", `/console/api/audit?limit=500${filter}`);
  expect(res.status).toBe(200);
  expect(res.body.next_cursor).toBeNull();
  return res.body.data;
}
async function newWorkspace(): Promise<string> {
  const slug = fresh();
  return (await apiCall("POST", "/api/v1/workspaces", { name: `Workspace ${slug}`, slug })).body.data.id;
}

beforeAll(async () => {
  // a provider to hold a BYOK credential; nothing is ever sent to it
  cg = await startConsoleGateway({ yaml: gatewayYaml("http://127.0.0.1:9") });
  // changes from the console, the API and SCIM, each holding a secret
  const key = await consoleCall("owner", "POST", "/console/api/keys", { name: "console key" });
  secrets.push(key.body.key);
  expect((await consoleCall("owner", "PATCH", `/console/api/workspaces/${cg.team}`, { name: "Team A" })).status).toBe(200);
  secrets.push((await apiCall("POST", "/api/v1/keys", { name: "api key" })).body.key);
  const byokSecret = "sk-byok-secret-0123456789abcdef";
  secrets.push(byokSecret);
  expect((await consoleCall("owner", "POST", "/console/api/byok", { provider: "oc", key: byokSecret })).status).toBe(201);
  const hook = await consoleCall("owner", "POST", `/console/api/workspaces/${cg.team}/webhook-secret`);
  expect(hook.status).toBe(200);
  secrets.push(hook.body.data.secret);
  const token = await apiCall("POST", "/api/v1/scim/tokens", { name: "Okta" });
  scimToken = token.body.token;
  secrets.push(scimToken);
  for (const name of ["ann", "ben"] as const) {
    const made = await scim("POST", "/Users", {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      userName: `${name}@example.com`,
      name: { givenName: name, familyName: "Lee" },
    });
    expect(made.status).toBe(201);
    users[name] = made.body.id;
  }
  const group = await scim("POST", "/Groups", {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
    displayName: "Engineering",
    members: [{ value: users.ann }, { value: users.ben }],
  });
  expect(group.status).toBe(201);
  groupId = group.body.id;
});
afterAll(async () => {
  await cg?.close();
});

describe("who may call the Audit and Groups routes", () => {
  const EXPECT: Record<Person | "none", number> = { owner: 200, admin: 200, member: 403, none: 401 };
  const rows: Array<{ route: string; method: string; path: () => Promise<string> | string; body?: () => Promise<unknown>; created?: boolean }> = [
    { route: "GET /console/api/audit", method: "GET", path: () => "/console/api/audit" },
    { route: "GET /console/api/audit/filters", method: "GET", path: () => "/console/api/audit/filters" },
    { route: "GET /console/api/audit/verify", method: "GET", path: () => "/console/api/audit/verify" },
    { route: "GET /console/api/groups", method: "GET", path: () => "/console/api/groups" },
    { route: "GET /console/api/group-mappings", method: "GET", path: () => "/console/api/group-mappings" },
    {
      route: "POST /console/api/group-mappings",
      method: "POST",
      path: () => "/console/api/group-mappings",
      body: async () => ({ scim_group_id: groupId, workspace_id: await newWorkspace(), role: "member" }),
      created: true,
    },
    {
      route: "PATCH /console/api/group-mappings/:id",
      method: "PATCH",
      path: async () =>
        `/console/api/group-mappings/${(await apiCall("POST", "/api/v1/scim/group-mappings", { scim_group_id: groupId, workspace_id: await newWorkspace(), role: "member" })).body.data.id}`,
      body: async () => ({ role: "admin" }),
    },
    {
      route: "DELETE /console/api/group-mappings/:id",
      method: "DELETE",
      path: async () =>
        `/console/api/group-mappings/${(await apiCall("POST", "/api/v1/scim/group-mappings", { scim_group_id: groupId, workspace_id: await newWorkspace(), role: "member" })).body.data.id}?keep_members=false`,
    },
  ];
  for (const row of rows)
    for (const who of ["owner", "admin", "member", null] as const) {
      const expected = row.created && (who === "owner" || who === "admin") ? 201 : EXPECT[who ?? "none"];
      test(`${row.route} as ${who ?? "nobody"}: ${expected}`, async () => {
        const res = await cg.call(who, row.method, await row.path(), await row.body?.());
        const text = await res.text();
        expect({ status: res.status, body: res.status === expected ? "" : text }).toEqual({ status: expected, body: "" });
        if (who === "member") expect(JSON.parse(text)).toEqual({ error: { code: 403, message: "Only organization owners and admins may do this" } });
      });
    }

  test("a mapping change without the session's CSRF token is 403 and changes nothing", async () => {
    const ws = await newWorkspace();
    const made = (await apiCall("POST", "/api/v1/scim/group-mappings", { scim_group_id: groupId, workspace_id: ws, role: "member" })).body.data;
    const before = await apiCall("GET", "/api/v1/scim/group-mappings?limit=100");
    const changes: Array<[string, string, unknown]> = [
      ["POST", "/console/api/group-mappings", { scim_group_id: groupId, workspace_id: await newWorkspace(), role: "member" }],
      ["PATCH", `/console/api/group-mappings/${made.id}`, { role: "admin" }],
      ["DELETE", `/console/api/group-mappings/${made.id}?keep_members=false`, undefined],
    ];
    for (const [method, path, body] of changes)
      for (const token of [undefined, cg.sessions.admin.csrfToken]) {
        const res = await fetch(`${cg.gw.url}${path}`, {
          method,
          headers: { cookie: cg.sessions.owner.cookie, "content-type": "application/json", ...(token ? { "x-csrf-token": token } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        expect({ method, status: res.status }).toEqual({ method, status: 403 });
        expect(((await res.json()) as { error: { metadata: unknown } }).error.metadata).toEqual({ field: "x-csrf-token" });
      }
    expect(await apiCall("GET", "/api/v1/scim/group-mappings?limit=100")).toEqual(before);
  });
});

describe("the audit log in the console", () => {
  test("newest first, each event with who and what by name, where it came from, and the workspace's name", async () => {
    const all = await everyEvent();
    expect(all.map((e) => Number(e.id))).toEqual([...all.map((e) => Number(e.id))].sort((a, b) => b - a));
    const pick = (action: string, target: string) => {
      const e = all.find((x) => x.action === action && x.target_name === target);
      if (!e) throw new Error(`no ${action} of ${target}`);
      return [e.actor_name, e.origin, e.workspace_name];
    };
    expect(pick("key.create", "console key")).toEqual([OWNER, "console", "Default"]);
    expect(pick("workspace.update", "Team A")).toEqual([OWNER, "console", "Team A"]);
    // the person's current name, with their email, where they are named
    expect(all.find((e) => e.action === "session.sign_in" && e.actor.id === "owner")?.actor_name).toBe(OWNER);
    expect(pick("key.create", "api key")).toEqual(["Admin key (GATEWAY_ADMIN_KEY)", "api", "Default"]);
    expect(pick("scim_token.create", "Okta")).toEqual(["Admin key (GATEWAY_ADMIN_KEY)", "api", null]);
    expect(pick("user.create", "ann Lee (ann@example.com)")).toEqual(["SCIM client “Okta”", "scim", null]);
    expect(pick("scim_group.create", "Engineering")).toEqual(["SCIM client “Okta”", "scim", null]);
    expect(pick("session.sign_in", "member@example.com")).toEqual(["member@example.com", "sign-in", null]);
    expect(pick("key.create", "Admin key (GATEWAY_ADMIN_KEY)")).toEqual(["the gateway (first start)", "system", "Default"]);
    const renamed = all.find((e) => e.action === "workspace.update" && e.changes.name)!;
    expect(renamed.changes).toEqual({ name: { from: "Team", to: "Team A" } });
  });

  test("keyset pages of 3 follow next_cursor through the whole log, exactly", async () => {
    const all = await everyEvent();
    const paged: Event[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await consoleCall("owner", "GET", `/console/api/audit?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      const data = res.body.data as Event[];
      expect(data.length).toBe(Math.min(3, all.length - paged.length));
      paged.push(...data);
      cursor = res.body.next_cursor;
      if (cursor !== null) expect(cursor).toBe(data.at(-1)!.id);
      pages++;
    } while (cursor !== null && pages < 100);
    expect(pages).toBe(Math.ceil(all.length / 3));
    expect(paged).toEqual(all);
  });

  test("filters: a kind of resource, an action, who, and a time range, each exactly the events it names", async () => {
    const all = await everyEvent();
    const ids = (events: Event[]) => events.map((e) => e.id);
    const byResource = await everyEvent("&resource=key");
    expect(ids(byResource)).toEqual(ids(all.filter((e) => e.action.startsWith("key."))));
    expect(byResource.map((e) => e.target_name)).toEqual(["api key", "console key", "Admin key (GATEWAY_ADMIN_KEY)"]);
    expect(ids(await everyEvent("&action=workspace.update"))).toEqual(ids(all.filter((e) => e.action === "workspace.update")));
    expect(ids(await everyEvent("&actor_id=owner"))).toEqual(ids(all.filter((e) => e.actor.id === "owner")));
    expect(ids(await everyEvent("&resource=session&actor_id=admin-user"))).toEqual(
      ids(all.filter((e) => e.action.startsWith("session.") && e.actor.id === "admin-user")),
    );
    // since inclusive, until exclusive, to the millisecond
    const [since, until] = [all.at(-4)!.created_at, all[2]!.created_at];
    const inRange = all.filter((e) => e.created_at >= since && e.created_at < until);
    expect(inRange.length).toBeGreaterThan(2);
    expect(ids(await everyEvent(`&since=${since}&until=${until}`))).toEqual(ids(inRange));
    expect(await everyEvent(`&resource=cache`)).toEqual([]);
  });

  test("bad filters are 400s naming the field", async () => {
    const errorOf = async (q: string) => (await consoleCall("owner", "GET", `/console/api/audit?${q}`)).body.error;
    expect(await errorOf("since=today")).toEqual({
      code: 400,
      message: "Invalid query parameter 'since': expected a UTC ISO 8601 date-time with seconds, e.g. 2030-01-01T00:00:00Z",
      metadata: { field: "since" },
    });
    expect(await errorOf("until=2030-01-01")).toEqual({
      code: 400,
      message: "Invalid query parameter 'until': expected a UTC ISO 8601 date-time with seconds, e.g. 2030-01-01T00:00:00Z",
      metadata: { field: "until" },
    });
    expect(await errorOf("limit=0")).toEqual({
      code: 400,
      message: "Invalid query parameter 'limit': expected an integer from 1 to 500, got 0",
      metadata: { location: "query", field: "limit" },
    });
    expect(await errorOf("cursor=abc")).toEqual({
      code: 400,
      message: "Invalid query parameter 'cursor': expected a string matching ^[1-9][0-9]{0,15}$, got \"abc\"",
      metadata: { location: "query", field: "cursor" },
    });
    const resource = await errorOf("resource=keys");
    expect([resource.message.startsWith('Invalid query parameter \'resource\': expected one of "key", "workspace"'), resource.metadata]).toEqual([
      true,
      { location: "query", field: "resource" },
    ]);
    const action = await errorOf("action=key.explode");
    expect([action.message.endsWith('got "key.explode"'), action.metadata]).toEqual([true, { location: "query", field: "action" }]);
  });

  test("no secret in any event: raw keys, the BYOK key, the webhook secret, the SCIM token and the password", async () => {
    const res = await cg.call("owner", "GET", "/console/api/audit?limit=500");
    const text = await res.text();
    expect(secrets.length).toBeGreaterThanOrEqual(6);
    for (const secret of secrets) expect({ secret, shown: text.includes(secret) }).toEqual({ secret, shown: false });
    const events = JSON.parse(text).data as Event[];
    expect(events.find((e) => e.action === "byok.create")!.changes.key).toEqual({ from: null, to: "[redacted]" });
    expect(events.find((e) => e.action === "user.password" && e.target.id === "owner")!.changes.password).toEqual({ from: null, to: "[redacted]" });
  });

  test("the chain as `gateway audit verify` checks it: verified, then an edited event named with its names, then verified again", async () => {
    const all = await everyEvent();
    const ok = await consoleCall("owner", "GET", "/console/api/audit/verify");
    expect(ok.body.data).toEqual({
      ok: true,
      events: all.length,
      first_id: "1",
      last_id: all[0]!.id,
      broken_id: null,
      reason: null,
      broken_event: null,
    });
    const edited = all.find((e) => e.action === "key.create" && e.target_name === "console key")!;
    const db = new Database(join(cg.gw.dir, "gateway.db"));
    const original = db.query<{ changes: string }, [number]>("select changes from audit_events where seq = ?").get(Number(edited.id))!.changes;
    db.run("update audit_events set changes = ? where seq = ?", [original.replace('"console key"', '"quietly renamed"'), Number(edited.id)]);
    try {
      const broken = await consoleCall("owner", "GET", "/console/api/audit/verify");
      const { broken_event, ...verdict } = broken.body.data;
      expect(verdict).toEqual({
        ok: false,
        events: Number(edited.id) - 1,
        first_id: null,
        last_id: null,
        broken_id: edited.id,
        reason: "its hash does not match its content: the event was edited",
      });
      expect([broken_event.id, broken_event.action, broken_event.target_name, broken_event.actor_name]).toEqual([
        edited.id,
        "key.create",
        "console key",
        OWNER,
      ]);
    } finally {
      db.run("update audit_events set changes = ? where seq = ?", [original, Number(edited.id)]);
      db.close();
    }
    expect((await consoleCall("owner", "GET", "/console/api/audit/verify")).body.data.ok).toBe(true);
  });

  test("the filters offer the resources, the actions and who acted, by name", async () => {
    const { body } = await consoleCall("admin", "GET", "/console/api/audit/filters");
    expect(body.data.resources).toEqual([
      "key",
      "workspace",
      "member",
      "byok",
      "preset",
      "budget",
      "guardrail",
      "destination",
      "user",
      "scim_token",
      "scim_group",
      "scim_mapping",
      "session",
      "cache",
    ]);
    expect(body.data.actions).toContain("scim_mapping.delete");
    const actors = body.data.actors as Array<{ id: string; type: string; name: string }>;
    expect(actors.filter((a) => a.type !== "user")).toEqual([
      { id: new Bun.CryptoHasher("sha256").update(cg.gw.adminKey).digest("hex"), type: "key", name: "Admin key (GATEWAY_ADMIN_KEY)" },
      { id: expect.any(String), type: "scim", name: "SCIM client “Okta”" },
    ]);
    expect(actors.filter((a) => a.type === "user").map((a) => a.name)).toEqual(
      expect.arrayContaining([OWNER, "admin@example.com", "member@example.com", "ann Lee (ann@example.com)", "ben Lee (ben@example.com)"]),
    );
  });
});

describe("groups and group mappings in the console", () => {
  test("the groups with their members by name", async () => {
    const { status, body } = await consoleCall("owner", "GET", "/console/api/groups");
    expect(status).toBe(200);
    expect(body.data).toEqual([
      {
        id: groupId,
        display_name: "Engineering",
        external_id: null,
        members: [
          { id: users.ann, name: "ann Lee" },
          { id: users.ben, name: "ben Lee" },
        ],
      },
    ]);
  });

  test("create, change and delete a mapping through the API's service: members join, take the role and leave; each change an event as through the API", async () => {
    const ws = await newWorkspace();
    const roles = async () =>
      Object.fromEntries(((await apiCall("GET", `/api/v1/workspaces/${ws}/members?limit=100`)).body.data as any[]).map((m) => [m.user_id, m.role]));
    const made = await consoleCall("owner", "POST", "/console/api/group-mappings", { scim_group_id: groupId, workspace_id: ws, role: "member" });
    expect(made.status).toBe(201);
    const id = made.body.data.id;
    expect(made.body.data).toEqual({
      id,
      scim_group_id: groupId,
      workspace_id: ws,
      role: "member",
      organization_id: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await roles()).toEqual({ [users.ann]: "member", [users.ben]: "member" });
    const listed = (await consoleCall("owner", "GET", "/console/api/group-mappings")).body.data.find((m: any) => m.id === id);
    expect(listed).toEqual({ ...made.body.data, group_name: "Engineering", workspace_name: `Workspace a${serial}` });

    expect((await consoleCall("admin", "PATCH", `/console/api/group-mappings/${id}`, { role: "admin" })).body.data.role).toBe("admin");
    expect(await roles()).toEqual({ [users.ann]: "admin", [users.ben]: "admin" });
    expect((await consoleCall("owner", "DELETE", `/console/api/group-mappings/${id}?keep_members=false`)).body).toEqual({ deleted: true });
    expect(await roles()).toEqual({});

    // the events, by the signed-in person, as the API's would be
    const events = (await everyEvent(`&target_id=${id}`)).reverse();
    expect(events.map((e) => [e.action, e.actor.type, e.actor.id, e.origin, e.target_name, e.workspace_id])).toEqual([
      ["scim_mapping.create", "user", "owner", "console", `Engineering → Workspace a${serial}`, ws],
      ["scim_mapping.update", "user", "admin-user", "console", `Engineering → Workspace a${serial}`, ws],
      ["scim_mapping.delete", "user", "owner", "console", `Engineering → Workspace a${serial}`, ws],
    ]);
    expect(events.map((e) => e.changes)).toEqual([
      { scim_group_id: { from: null, to: groupId }, workspace_id: { from: null, to: ws }, role: { from: null, to: "member" } },
      { role: { from: "member", to: "admin" } },
      {
        scim_group_id: { from: groupId, to: null },
        workspace_id: { from: ws, to: null },
        role: { from: "admin", to: null },
        keep_members: { from: null, to: false },
      },
    ]);
    const joined = (await everyEvent(`&action=member.add&since=${events[0]!.created_at}`)).filter((e) => e.workspace_id === ws);
    expect(joined.map((e) => [e.actor.id, e.target_name]).sort()).toEqual([
      ["owner", `ann Lee (ann@example.com) in Workspace a${serial}`],
      ["owner", `ben Lee (ben@example.com) in Workspace a${serial}`],
    ]);

    // the same through the management API: the same events, by the key
    const viaApi = (await apiCall("POST", "/api/v1/scim/group-mappings", { scim_group_id: groupId, workspace_id: ws, role: "member" })).body.data.id;
    const [apiEvent] = await everyEvent(`&target_id=${viaApi}`);
    expect([apiEvent!.action, apiEvent!.actor.type, apiEvent!.origin, apiEvent!.changes]).toEqual(["scim_mapping.create", "key", "api", events[0]!.changes]);
  });

  test("its errors are the management API's, each naming what is wrong", async () => {
    const ws = await newWorkspace();
    const existing = (await apiCall("POST", "/api/v1/scim/group-mappings", { scim_group_id: groupId, workspace_id: ws, role: "member" })).body.data.id;
    const cases: Array<[string, string, string, unknown]> = [
      ["POST", "/console/api/group-mappings", "/api/v1/scim/group-mappings", { scim_group_id: "no-such-group", workspace_id: ws, role: "member" }],
      ["POST", "/console/api/group-mappings", "/api/v1/scim/group-mappings", { scim_group_id: groupId, workspace_id: "no-such-workspace", role: "member" }],
      ["POST", "/console/api/group-mappings", "/api/v1/scim/group-mappings", { scim_group_id: groupId, workspace_id: ws, role: "member" }],
      ["POST", "/console/api/group-mappings", "/api/v1/scim/group-mappings", { scim_group_id: groupId, workspace_id: ws, role: "owner" }],
      ["POST", "/console/api/group-mappings", "/api/v1/scim/group-mappings", { scim_group_id: groupId, workspace_id: ws, role: "member", extra: 1 }],
      ["PATCH", "/console/api/group-mappings/no-such-mapping", "/api/v1/scim/group-mappings/no-such-mapping", { role: "admin" }],
      ["PATCH", `/console/api/group-mappings/${existing}`, `/api/v1/scim/group-mappings/${existing}`, { role: "boss" }],
      ["DELETE", `/console/api/group-mappings/${existing}`, `/api/v1/scim/group-mappings/${existing}`, undefined],
      ["DELETE", `/console/api/group-mappings/${existing}?keep_members=maybe`, `/api/v1/scim/group-mappings/${existing}?keep_members=maybe`, undefined],
      ["DELETE", "/console/api/group-mappings/no-such-mapping?keep_members=true", "/api/v1/scim/group-mappings/no-such-mapping?keep_members=true", undefined],
    ];
    const answers = [];
    for (const [method, consolePath, apiPath, body] of cases) {
      const [fromConsole, fromApi] = [await consoleCall("owner", method, consolePath, body), await apiCall(method, apiPath, body)];
      expect({ method, consolePath, answer: fromConsole }).toEqual({ method, consolePath, answer: fromApi });
      answers.push([fromConsole.status, fromConsole.body.error.message, fromConsole.body.error.metadata?.field ?? null]);
    }
    expect(answers).toEqual([
      [404, "SCIM group not found: scim_group_id 'no-such-group'", null],
      [404, "Workspace not found: workspace_id 'no-such-workspace'", null],
      [409, `SCIM group '${groupId}' is already mapped to workspace '${ws}'`, null],
      [400, expect.stringContaining("Invalid field 'role'"), "role"],
      [400, "Invalid field 'extra': unknown field", "extra"],
      [404, "SCIM group mapping not found: no-such-mapping", null],
      [400, expect.stringContaining("Invalid field 'role'"), "role"],
      [400, "Invalid field 'keep_members': required, true or false", "keep_members"],
      [400, expect.stringContaining("keep_members"), "keep_members"],
      [404, "SCIM group mapping not found: no-such-mapping", null],
    ]);
  });
});
