// The console's Guardrails and Response cache routes: who may call each (owners and admins change,
// a member reads the workspaces they belong to, nobody without a session gets anything, a change
// needs the CSRF token); the management API's validation and errors, answered the same; each
// change one audit event with the signed-in person as its actor and the changes the API's event
// names; keys and workspace members show their guardrail by name; the cache's count and purge.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { until } from "../../support/until";
import { gatewayYaml, MODEL } from "../inference/harness";
import { type ConsoleGateway, EMAIL, type Person, startConsoleGateway } from "./harness";

let up: MockUpstream;
let cg: ConsoleGateway;
let defaultWs: string;
let serial = 0;
const fresh = () => `g${++serial}`;

const CACHE_YAML = "response_cache: { enabled: true, ttl_seconds: 120, default: on, max_entry_bytes: 4096 }\n";

beforeAll(async () => {
  up = await startMockUpstream();
  cg = await startConsoleGateway({ yaml: `${gatewayYaml(up.url)}${CACHE_YAML}` });
  defaultWs = ((await (await cg.gw.api("/api/v1/workspaces/default")).json()) as { data: { id: string } }).data.id;
});
afterAll(async () => {
  await cg.close();
  await up.stop();
});

async function json(res: Response): Promise<any> {
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}
/** a guardrail made through the management API, in `workspace` (default: the team's) */
async function apiGuardrail(workspace = cg.team): Promise<string> {
  const res = await cg.gw.api("/api/v1/guardrails", { method: "POST", json: { name: fresh(), workspace_id: workspace } });
  expect(res.status).toBe(201);
  return (await json(res)).data.id;
}
async function apiKey(body: Record<string, unknown>): Promise<{ key: string; hash: string }> {
  const res = await cg.gw.api("/api/v1/keys", { method: "POST", json: body });
  const j = await json(res);
  return { key: j.key, hash: j.data.hash };
}
/** the newest audit events, newest first */
async function events(query = ""): Promise<any[]> {
  return (await json(await cg.gw.api(`/api/v1/audit-logs?limit=500${query}`))).data;
}

type Expect = Record<Person | "none", number>;
const MANAGERS: Expect = { owner: 200, admin: 200, member: 403, none: 401 };
const EVERYONE: Expect = { owner: 200, admin: 200, member: 200, none: 401 };
type Row = { route: string; method: string; path: () => string | Promise<string>; body?: () => unknown | Promise<unknown>; expect: Expect };

const ROWS: Row[] = [
  {
    route: "GET /console/api/guardrails (the member's workspace)",
    method: "GET",
    path: () => `/console/api/guardrails?workspace_id=${cg.team}`,
    expect: EVERYONE,
  },
  {
    route: "GET /console/api/guardrails (another workspace)",
    method: "GET",
    path: () => `/console/api/guardrails?workspace_id=${defaultWs}`,
    expect: MANAGERS,
  },
  {
    route: "POST /console/api/guardrails",
    method: "POST",
    path: () => "/console/api/guardrails",
    body: () => ({ name: fresh(), workspace_id: cg.team }),
    expect: { owner: 201, admin: 201, member: 403, none: 401 },
  },
  {
    route: "PATCH /console/api/guardrails/:id",
    method: "PATCH",
    path: async () => `/console/api/guardrails/${await apiGuardrail()}`,
    body: () => ({ description: "changed" }),
    expect: MANAGERS,
  },
  { route: "DELETE /console/api/guardrails/:id", method: "DELETE", path: async () => `/console/api/guardrails/${await apiGuardrail()}`, expect: MANAGERS },
  {
    route: "POST /console/api/guardrails/:id/assignments/keys",
    method: "POST",
    path: async () => `/console/api/guardrails/${await apiGuardrail()}/assignments/keys`,
    body: async () => ({ key_hashes: [(await apiKey({ name: fresh(), workspace_id: cg.team })).hash] }),
    expect: MANAGERS,
  },
  {
    route: "POST /console/api/guardrails/:id/assignments/keys/remove",
    method: "POST",
    path: async () => `/console/api/guardrails/${await apiGuardrail()}/assignments/keys/remove`,
    body: () => ({ key_hashes: ["0".repeat(64)] }),
    expect: MANAGERS,
  },
  {
    route: "POST /console/api/guardrails/:id/assignments/members",
    method: "POST",
    path: async () => `/console/api/guardrails/${await apiGuardrail()}/assignments/members`,
    body: () => ({ member_user_ids: ["member-user"] }),
    expect: MANAGERS,
  },
  {
    route: "POST /console/api/guardrails/:id/assignments/members/remove",
    method: "POST",
    path: async () => `/console/api/guardrails/${await apiGuardrail()}/assignments/members/remove`,
    body: () => ({ member_user_ids: ["member-user"] }),
    expect: MANAGERS,
  },
  { route: "GET /console/api/cache (the member's workspace)", method: "GET", path: () => `/console/api/cache?workspace_id=${cg.team}`, expect: EVERYONE },
  { route: "GET /console/api/cache (another workspace)", method: "GET", path: () => `/console/api/cache?workspace_id=${defaultWs}`, expect: MANAGERS },
  { route: "DELETE /console/api/cache", method: "DELETE", path: () => `/console/api/cache?workspace_id=${cg.team}`, expect: MANAGERS },
];

describe("who may call each route", () => {
  for (const row of ROWS)
    for (const who of ["owner", "admin", "member", null] as const)
      test(`${row.route} as ${who ?? "nobody"}: ${row.expect[who ?? "none"]}`, async () => {
        const res = await cg.call(who, row.method, await row.path(), row.body ? await row.body() : undefined);
        expect(res.status).toBe(row.expect[who ?? "none"]);
        if (res.status >= 400) expect((await json(res)).error.code).toBe(res.status);
      });

  test("a change without the session's CSRF token is 403 and changes nothing, writing no event", async () => {
    const id = await apiGuardrail();
    const before = (await events())[0].id;
    const noToken = (method: string, path: string, body?: unknown) =>
      fetch(`${cg.gw.url}${path}`, {
        method,
        headers: { cookie: cg.sessions.owner.cookie, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    for (const res of [
      await noToken("POST", "/console/api/guardrails", { name: "csrf", workspace_id: cg.team }),
      await noToken("PATCH", `/console/api/guardrails/${id}`, { name: "csrf" }),
      await noToken("DELETE", `/console/api/guardrails/${id}`),
      await noToken("POST", `/console/api/guardrails/${id}/assignments/members`, { member_user_ids: ["member-user"] }),
      await noToken("DELETE", `/console/api/cache?workspace_id=${cg.team}`),
    ]) {
      expect(res.status).toBe(403);
      expect((await json(res)).error.metadata.field).toBe("x-csrf-token");
    }
    expect((await events())[0].id).toBe(before);
    expect((await json(await cg.gw.api(`/api/v1/guardrails/${id}`))).data.name).not.toBe("csrf");
  });
});

describe("the management API's validation, answered the same", () => {
  const cases: Array<{ what: string; body: Record<string, unknown>; field: string; code?: string }> = [
    { what: "a budget without its window", body: { name: "x", limit_usd: 5 }, field: "reset_interval" },
    {
      what: "a pattern that could backtrack",
      body: { name: "x", content_filters: [{ pattern: "(a+)+$", action: "block" }] },
      field: "content_filters[0].pattern",
    },
    { what: "an empty allow list", body: { name: "x", allowed_models: [] }, field: "allowed_models" },
    { what: "no name", body: { description: "nameless" }, field: "name" },
    { what: "an unknown action", body: { name: "x", content_filter_builtins: [{ slug: "email", action: "shout" }] }, field: "content_filter_builtins" },
  ];
  for (const c of cases)
    test(`create, ${c.what}: 400 naming ${c.field}, as /api/v1/guardrails answers`, async () => {
      const viaConsole = await cg.call("owner", "POST", "/console/api/guardrails", c.body);
      const viaApi = await cg.gw.api("/api/v1/guardrails", { method: "POST", json: c.body });
      expect(viaConsole.status).toBe(400);
      const [consoleBody, apiBody] = [await json(viaConsole), await json(viaApi)];
      expect(consoleBody.error.metadata.field.startsWith(c.field)).toBe(true);
      expect(consoleBody).toEqual(apiBody);
    });

  test("the default guardrail keeps its workspace's name; it takes no assignments; an unknown key is named", async () => {
    const listing = await json(await cg.call("owner", "GET", `/console/api/guardrails?workspace_id=${cg.team}`));
    expect([listing.default.name, listing.default.is_default]).toEqual(["Default guardrail of Team", true]);
    const rename = await cg.call("owner", "PATCH", `/console/api/guardrails/${listing.default.id}`, { name: "mine" });
    expect([rename.status, (await json(rename)).error.metadata.field]).toEqual([400, "name"]);
    const assign = await cg.call("owner", "POST", `/console/api/guardrails/${listing.default.id}/assignments/members`, { member_user_ids: ["member-user"] });
    expect([assign.status, (await json(assign)).error.metadata.field]).toEqual([400, "id"]);
    const id = await apiGuardrail();
    const unknown = await cg.call("owner", "POST", `/console/api/guardrails/${id}/assignments/keys`, { key_hashes: ["f".repeat(64)] });
    expect(unknown.status).toBe(400);
    expect((await json(unknown)).error).toMatchObject({ code: 400, message: `Invalid field 'key_hashes[0]': no such API key '${"f".repeat(64)}'` });
    const missing = await cg.call("owner", "PATCH", "/console/api/guardrails/no-such-guardrail", { description: "x" });
    expect(missing.status).toBe(404);
  });

  test("an unknown workspace is 404, and the cache's workspace is required, naming the field", async () => {
    expect((await cg.call("owner", "GET", "/console/api/guardrails?workspace_id=nope")).status).toBe(404);
    expect((await cg.call("owner", "GET", "/console/api/cache?workspace_id=nope")).status).toBe(404);
    const none = await cg.call("owner", "DELETE", "/console/api/cache");
    expect([none.status, (await json(none)).error.metadata.field]).toEqual([400, "workspace_id"]);
  });
});

describe("audit events, as through the management API", () => {
  test("create, update, assign, unassign and delete from the console: one event each, the signed-in owner its actor, the changes the API's", async () => {
    const key = await apiKey({ name: fresh(), workspace_id: cg.team });
    const body = { name: "audited", workspace_id: cg.team, allowed_models: [MODEL["openai-chat"]], limit_usd: 5, reset_interval: "monthly" };
    const before = (await events())[0].id;
    const created = await json(await cg.call("owner", "POST", "/console/api/guardrails", body));
    const id = created.data.id;
    const steps: Array<[string, string, unknown]> = [
      ["PATCH", `/console/api/guardrails/${id}`, { name: "audited 2", limit_usd: null, reset_interval: null }],
      ["POST", `/console/api/guardrails/${id}/assignments/keys`, { key_hashes: [key.hash] }],
      ["POST", `/console/api/guardrails/${id}/assignments/keys/remove`, { key_hashes: [key.hash] }],
      ["POST", `/console/api/guardrails/${id}/assignments/members`, { member_user_ids: ["member-user"] }],
      ["POST", `/console/api/guardrails/${id}/assignments/members/remove`, { member_user_ids: ["member-user"] }],
      ["DELETE", `/console/api/guardrails/${id}`, undefined],
    ];
    for (const [method, path, b] of steps) expect((await cg.call("owner", method, path, b)).status).toBe(200);
    const mine = (await events()).filter((e) => Number(e.id) > Number(before)).reverse();
    expect(mine.map((e) => e.action)).toEqual([
      "guardrail.create",
      "guardrail.update",
      "guardrail.assign",
      "guardrail.unassign",
      "guardrail.assign",
      "guardrail.unassign",
      "guardrail.delete",
    ]);
    for (const e of mine) {
      expect(e.actor).toEqual({ type: "user", id: cg.ids.owner, label: EMAIL.owner });
      expect([e.target, e.workspace_id]).toEqual([{ type: "guardrail", id }, cg.team]);
    }
    expect(mine.map((e) => e.changes)).toEqual([
      {
        name: { from: null, to: "audited" },
        workspace_id: { from: null, to: cg.team },
        limit_usd: { from: null, to: 5 },
        reset_interval: { from: null, to: "monthly" },
        include_byok_in_budgets: { from: null, to: false },
        allowed_models: { from: null, to: [MODEL["openai-chat"]] },
      },
      { name: { from: "audited", to: "audited 2" }, limit_usd: { from: 5, to: null }, reset_interval: { from: "monthly", to: null } },
      { key_hashes: { from: null, to: [key.hash] } },
      { key_hashes: { from: [key.hash], to: null } },
      { member_user_ids: { from: null, to: ["member-user"] } },
      { member_user_ids: { from: ["member-user"], to: null } },
      {
        name: { from: "audited 2", to: null },
        workspace_id: { from: cg.team, to: null },
        include_byok_in_budgets: { from: false, to: null },
        allowed_models: { from: [MODEL["openai-chat"]], to: null },
      },
    ]);
    // the same create through the management API records the same changes
    const viaApi = await json(await cg.gw.api("/api/v1/guardrails", { method: "POST", json: body }));
    const [apiEvent] = await events(`&target_id=${viaApi.data.id}`);
    expect(apiEvent.changes).toEqual(mine[0].changes);
    expect(((await json(await cg.gw.api("/api/v1/audit-logs/verify"))) as { ok: boolean }).ok).toBe(true);
  });

  test("an assignment from the console names the signed-in person as its assigner", async () => {
    const id = await apiGuardrail();
    const key = await apiKey({ name: fresh(), workspace_id: cg.team });
    expect((await cg.call("admin", "POST", `/console/api/guardrails/${id}/assignments/keys`, { key_hashes: [key.hash] })).status).toBe(200);
    const listed = await json(await cg.gw.api(`/api/v1/guardrails/${id}/assignments/keys`));
    expect(listed.data.map((a: any) => [a.key_hash, a.assigned_by])).toEqual([[key.hash, "admin-user"]]);
  });
});

describe("what the pages read", () => {
  test("the listing: the default guardrail apart, each other one with its keys and members; a member sees their own keys among them only", async () => {
    const g = await json(
      await cg.call("owner", "POST", "/console/api/guardrails", { name: "listed", workspace_id: cg.team, ignored_providers: ["az"], enforce_zdr_openai: true }),
    );
    const ownersKey = await apiKey({ name: "owner's team key", workspace_id: cg.team });
    const membersKey = await json(await cg.call("member", "POST", "/console/api/keys", { name: "member's key", workspace_id: cg.team }));
    const hashes = [ownersKey.hash, membersKey.data.hash];
    expect((await cg.call("owner", "POST", `/console/api/guardrails/${g.data.id}/assignments/keys`, { key_hashes: hashes })).status).toBe(200);
    expect((await cg.call("owner", "POST", `/console/api/guardrails/${g.data.id}/assignments/members`, { member_user_ids: ["member-user"] })).status).toBe(200);

    const asOwner = (await json(await cg.call("owner", "GET", `/console/api/guardrails?workspace_id=${cg.team}`))).data.find((x: any) => x.id === g.data.id);
    expect(asOwner).toMatchObject({ name: "listed", is_default: false, ignored_providers: ["az"], enforce_zdr_openai: true });
    expect(asOwner.keys.map((k: any) => k.name).sort()).toEqual(["member's key", "owner's team key"]);
    expect(asOwner.members).toEqual([{ user_id: "member-user", email: EMAIL.member, name: null }]);
    const listing = await json(await cg.call("member", "GET", `/console/api/guardrails?workspace_id=${cg.team}`));
    expect(listing.data.find((x: any) => x.id === g.data.id).keys.map((k: any) => k.name)).toEqual(["member's key"]);
    expect(listing.data.some((x: any) => x.id === listing.default.id)).toBe(false);

    // the Keys page and the workspace's members name it
    const keys = (await json(await cg.call("owner", "GET", `/console/api/keys?workspace_id=${cg.team}`))).data;
    expect(keys.find((k: any) => k.hash === ownersKey.hash).guardrail).toEqual({ id: g.data.id, name: "listed" });
    const ownKeys = (await json(await cg.call("member", "GET", "/console/api/keys"))).data;
    expect(ownKeys.find((k: any) => k.hash === membersKey.data.hash).guardrail).toEqual({ id: g.data.id, name: "listed" });
    const members = (await json(await cg.call("member", "GET", `/console/api/workspaces/${cg.team}/members`))).data;
    expect(members.find((m: any) => m.user_id === "member-user").guardrail).toEqual({ id: g.data.id, name: "listed" });
    const unassigned = (await json(await cg.call("owner", "GET", `/console/api/keys?workspace_id=${defaultWs}`))).data;
    expect(unassigned.every((k: any) => k.guardrail === null)).toBe(true);
  });

  test("the cache: gateway.yaml's settings, the workspace's entries; a purge empties that workspace only, as DELETE /api/v1/cache does, with its event", async () => {
    const teamKey = await apiKey({ name: fresh(), workspace_id: cg.team });
    const defaultKey = await apiKey({ name: fresh() });
    up.setHandler(() => ({ text: ["cached answer"], usage: { input: 3, output: 2 } }));
    for (const [key, question] of [
      [teamKey.key, "one"],
      [teamKey.key, "two"],
      [defaultKey.key, "three"],
    ] as const) {
      const res = await cg.gw.api("/api/v1/chat/completions", {
        key,
        method: "POST",
        json: { model: MODEL["openai-chat"], messages: [{ role: "user", content: `cache ${question} ${crypto.randomUUID()}` }] },
      });
      expect([res.status, res.headers.get("x-gateway-cache")]).toEqual([200, "MISS"]);
      await res.text();
    }
    const read = async (who: Person, ws: string) => (await json(await cg.call(who, "GET", `/console/api/cache?workspace_id=${ws}`))).data;
    const team = await until("two team entries", async () => ((await read("member", cg.team)).entries === 2 ? read("member", cg.team) : undefined));
    expect(team).toEqual({
      workspace_id: cg.team,
      enabled: true,
      ttl_seconds: 120,
      default_mode: "on",
      max_entry_bytes: 4096,
      entries: 2,
      bytes: team.bytes,
    });
    expect(team.bytes).toBeGreaterThan(0);
    expect((await read("owner", defaultWs)).entries).toBe(1);

    const purge = await cg.call("admin", "DELETE", `/console/api/cache?workspace_id=${cg.team}`);
    expect([purge.status, await json(purge)]).toEqual([200, { deleted: 2 }]);
    expect((await read("owner", cg.team)).entries).toBe(0);
    expect((await read("owner", defaultWs)).entries).toBe(1);
    const [event] = await events("&action=cache.purge");
    expect([event.actor, event.target, event.workspace_id, event.changes]).toEqual([
      { type: "user", id: "admin-user", label: EMAIL.admin },
      { type: "response_cache", id: cg.team },
      cg.team,
      { deleted: { from: null, to: 2 } },
    ]);
  });
});
