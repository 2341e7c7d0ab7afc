// Every console route with the owner, an admin, a member and no session: managers may do
// everything, a member reads their own keys and their workspaces and changes only their own
// keys, nobody without a session gets anything (401 JSON; the page redirects to sign-in). State
// changes need the session's CSRF token. Every answer carries the console's security headers.
// Observability destinations: a member reads their workspace's, only managers change or test
// them (the probe goes to a loopback receiver, so the gateway allows private URLs).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type HttpRecorder, startHttpRecorder } from "../../support/http-recorder";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { gatewayYaml, MODEL } from "../inference/harness";
import { type ConsoleGateway, type Person, startConsoleGateway } from "./harness";

let up: MockUpstream;
let receiver: HttpRecorder;
let cg: ConsoleGateway;
let defaultWs: string;
let ownerKey: string;
let generationInDefault: string;
let generationInTeam: string;
let generationNotKept: string;
let teamDestination: string;
let serial = 0;

/** a chat through the API with `key`, its generation id */
async function chat(key: string): Promise<string> {
  up.enqueue({ text: ["hi"], usage: { input: 3, output: 2 } });
  const res = await cg.gw.api("/api/v1/chat/completions", {
    key,
    method: "POST",
    json: { model: MODEL["openai-chat"], messages: [{ role: "user", content: "hi" }] },
  });
  expect(res.status).toBe(200);
  await res.text();
  return res.headers.get("x-generation-id")!;
}

async function keyIn(workspaceId: string | undefined): Promise<{ key: string; data: { hash: string } }> {
  const res = await cg.gw.api("/api/v1/keys", { method: "POST", json: { name: fresh(), ...(workspaceId ? { workspace_id: workspaceId } : {}) } });
  return (await res.json()) as { key: string; data: { hash: string } };
}

const ioLogging = (workspaceId: string) =>
  cg.gw.api(`/api/v1/workspaces/${workspaceId}`, { method: "PATCH", json: { is_observability_io_logging_enabled: true, io_logging_sampling_rate: 1 } });

beforeAll(async () => {
  up = await startMockUpstream();
  receiver = startHttpRecorder();
  // the harness yaml allows private URLs already (the mock on loopback is a webhook and an image host)
  cg = await startConsoleGateway({ yaml: gatewayYaml(up.url) });
  defaultWs = ((await (await cg.gw.api("/api/v1/workspaces/default")).json()) as { data: { id: string } }).data.id;
  const created = await keyIn(undefined);
  ownerKey = created.data.hash;
  generationNotKept = await chat(created.key);
  expect((await ioLogging(defaultWs)).status).toBe(200);
  expect((await ioLogging(cg.team)).status).toBe(200);
  generationInDefault = await chat(created.key);
  generationInTeam = await chat((await keyIn(cg.team)).key);
  teamDestination = await ownerDestination(cg.team);
});
afterAll(async () => {
  await cg.close();
  await up.stop();
  await receiver.stop();
});

type Expect = Record<Person | "none", number>;
const MANAGERS_ONLY: Expect = { owner: 200, admin: 200, member: 403, none: 401 };
const EVERYONE: Expect = { owner: 200, admin: 200, member: 200, none: 401 };

/** a fresh thing per call, so that each person's call acts on its own */
const fresh = () => `t${++serial}`;
async function ownerByok(): Promise<string> {
  const res = await cg.gw.api("/api/v1/byok", { method: "POST", json: { provider: "oc", key: `sk-console-test-${fresh()}-0123456789` } });
  return ((await res.json()) as { data: { id: string } }).data.id;
}
async function ownerWorkspace(): Promise<string> {
  const slug = fresh();
  const res = await cg.gw.api("/api/v1/workspaces", { method: "POST", json: { name: slug, slug } });
  return ((await res.json()) as { data: { id: string } }).data.id;
}
/** a user of the organization, made through the API (no password: an invite applies) */
async function ownerUser(): Promise<string> {
  const res = await cg.gw.api("/api/v1/organization/members", { method: "POST", json: { email: `${fresh()}@example.com`, role: "member" } });
  return ((await res.json()) as { data: { id: string } }).data.id;
}
async function ownerInferenceKey(): Promise<string> {
  const res = await cg.gw.api("/api/v1/keys", { method: "POST", json: { name: fresh() } });
  return ((await res.json()) as { data: { hash: string } }).data.hash;
}

/** a webhook destination at the loopback receiver, made through the API (each in its own workspace when asked: at most 5 of a type in one) */
async function ownerDestination(workspaceId?: string): Promise<string> {
  const ws = workspaceId ?? (await ownerWorkspace());
  const res = await cg.gw.api("/api/v1/observability/destinations?skip_test=true", {
    method: "POST",
    json: { type: "webhook", name: fresh(), workspace_id: ws, config: { url: `${receiver.url}/hook` } },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data.id;
}
const webhookBody = () => ({ type: "webhook", name: fresh(), workspace_id: cg.team, config: { url: `${receiver.url}/hook` } });

type Row = { route: string; method: string; path: () => string | Promise<string>; body?: () => unknown; expect: Expect };
const ROUTES: Row[] = [
  { route: "GET /console", method: "GET", path: () => "/console", expect: { owner: 200, admin: 200, member: 200, none: 302 } },
  { route: "GET /console/api/me", method: "GET", path: () => "/console/api/me", expect: EVERYONE },
  { route: "GET /console/api/overview", method: "GET", path: () => "/console/api/overview", expect: EVERYONE },
  { route: "GET /console/api/overview (the member's workspace)", method: "GET", path: () => `/console/api/overview?workspace_id=${cg.team}`, expect: EVERYONE },
  {
    route: "GET /console/api/overview (another workspace)",
    method: "GET",
    path: () => `/console/api/overview?workspace_id=${defaultWs}`,
    expect: MANAGERS_ONLY,
  },
  { route: "GET /console/api/keys", method: "GET", path: () => "/console/api/keys", expect: EVERYONE },
  {
    route: "POST /console/api/keys (the member's workspace)",
    method: "POST",
    path: () => "/console/api/keys",
    body: () => ({ name: fresh(), workspace_id: cg.team }),
    expect: { owner: 201, admin: 201, member: 201, none: 401 },
  },
  {
    route: "POST /console/api/keys (another workspace)",
    method: "POST",
    path: () => "/console/api/keys",
    body: () => ({ name: fresh(), workspace_id: defaultWs }),
    expect: { owner: 201, admin: 201, member: 403, none: 401 },
  },
  {
    route: "GET /console/api/keys/:hash (the owner's key)",
    method: "GET",
    path: () => `/console/api/keys/${ownerKey}`,
    expect: { owner: 200, admin: 200, member: 404, none: 401 },
  },
  {
    route: "PATCH /console/api/keys/:hash",
    method: "PATCH",
    path: () => `/console/api/keys/${ownerKey}`,
    body: () => ({ name: "renamed" }),
    expect: { owner: 200, admin: 200, member: 404, none: 401 },
  },
  {
    route: "DELETE /console/api/keys/:hash",
    method: "DELETE",
    path: async () => `/console/api/keys/${await ownerInferenceKey()}`,
    expect: { owner: 200, admin: 200, member: 404, none: 401 },
  },
  {
    route: "POST /console/api/keys/:hash/rotate",
    method: "POST",
    path: async () => `/console/api/keys/${await ownerInferenceKey()}/rotate`,
    body: () => ({ grace_seconds: 0 }),
    expect: { owner: 200, admin: 200, member: 404, none: 401 },
  },
  { route: "GET /console/api/analytics/meta", method: "GET", path: () => "/console/api/analytics/meta", expect: EVERYONE },
  {
    route: "POST /console/api/analytics/query",
    method: "POST",
    path: () => "/console/api/analytics/query",
    body: () => ({ metrics: ["request_count"] }),
    expect: EVERYONE,
  },
  { route: "GET /console/api/refusals", method: "GET", path: () => "/console/api/refusals", expect: EVERYONE },
  {
    route: "GET /console/api/refusals (another workspace)",
    method: "GET",
    path: () => `/console/api/refusals?workspace_id=${defaultWs}`,
    expect: MANAGERS_ONLY,
  },
  { route: "GET /console/api/people", method: "GET", path: () => "/console/api/people", expect: MANAGERS_ONLY },
  {
    route: "POST /console/api/people",
    method: "POST",
    path: () => "/console/api/people",
    body: () => ({ email: `${fresh()}@example.com`, role: "member", workspace_ids: [cg.team] }),
    expect: { owner: 201, admin: 201, member: 403, none: 401 },
  },
  {
    route: "POST /console/api/people/:id/invite",
    method: "POST",
    path: async () => `/console/api/people/${await ownerUser()}/invite`,
    body: () => ({}),
    expect: MANAGERS_ONLY,
  },
  {
    route: "PATCH /console/api/people/:id (a role: owners only)",
    method: "PATCH",
    path: async () => `/console/api/people/${await ownerUser()}`,
    body: () => ({ role: "admin" }),
    expect: { owner: 200, admin: 403, member: 403, none: 401 },
  },
  {
    route: "DELETE /console/api/people/:id",
    method: "DELETE",
    path: async () => `/console/api/people/${await ownerUser()}`,
    expect: MANAGERS_ONLY,
  },
  {
    route: "POST /console/api/playground (the owner's key)",
    method: "POST",
    path: () => "/console/api/playground",
    body: () => ({ key_hash: ownerKey, model: MODEL["openai-chat"], prompt: "hi" }),
    expect: { owner: 200, admin: 200, member: 404, none: 401 },
  },
  {
    route: "GET /console/api/generations.csv (whole organization)",
    method: "GET",
    path: () => "/console/api/generations.csv",
    expect: { owner: 200, admin: 200, member: 400, none: 401 },
  },
  {
    route: "GET /console/api/generations.csv (another workspace)",
    method: "GET",
    path: () => `/console/api/generations.csv?workspace_id=${defaultWs}`,
    expect: MANAGERS_ONLY,
  },
  {
    route: "GET /console/api/generations (whole organization)",
    method: "GET",
    path: () => "/console/api/generations",
    expect: { owner: 200, admin: 200, member: 400, none: 401 },
  },
  {
    route: "GET /console/api/generations (the member's workspace)",
    method: "GET",
    path: () => `/console/api/generations?workspace_id=${cg.team}`,
    expect: EVERYONE,
  },
  {
    route: "GET /console/api/generations (another workspace)",
    method: "GET",
    path: () => `/console/api/generations?workspace_id=${defaultWs}`,
    expect: MANAGERS_ONLY,
  },
  {
    route: "GET /console/api/generations/:id (another workspace's)",
    method: "GET",
    path: () => `/console/api/generations/${generationInDefault}`,
    expect: { owner: 200, admin: 200, member: 404, none: 401 },
  },
  { route: "GET /console/api/models", method: "GET", path: () => "/console/api/models", expect: EVERYONE },
  { route: "GET /console/api/workspaces", method: "GET", path: () => "/console/api/workspaces", expect: EVERYONE },
  {
    route: "POST /console/api/workspaces",
    method: "POST",
    path: () => "/console/api/workspaces",
    body: () => {
      const s = fresh();
      return { name: s, slug: s };
    },
    expect: { owner: 201, admin: 201, member: 403, none: 401 },
  },
  {
    route: "PATCH /console/api/workspaces/:id",
    method: "PATCH",
    path: () => `/console/api/workspaces/${cg.team}`,
    body: () => ({ description: "the team" }),
    expect: MANAGERS_ONLY,
  },
  {
    route: "DELETE /console/api/workspaces/:id",
    method: "DELETE",
    path: async () => `/console/api/workspaces/${await ownerWorkspace()}`,
    expect: MANAGERS_ONLY,
  },
  {
    route: "GET /console/api/workspaces/:id/members (the member's)",
    method: "GET",
    path: () => `/console/api/workspaces/${cg.team}/members`,
    expect: EVERYONE,
  },
  {
    route: "GET /console/api/workspaces/:id/members (another)",
    method: "GET",
    path: () => `/console/api/workspaces/${defaultWs}/members`,
    expect: MANAGERS_ONLY,
  },
  {
    route: "POST /console/api/workspaces/:id/members/add",
    method: "POST",
    path: () => `/console/api/workspaces/${cg.team}/members/add`,
    body: () => ({ user_ids: ["admin-user"] }),
    expect: MANAGERS_ONLY,
  },
  {
    route: "POST /console/api/workspaces/:id/members/remove",
    method: "POST",
    path: () => `/console/api/workspaces/${cg.team}/members/remove`,
    body: () => ({ user_ids: ["no-such-user"] }),
    expect: MANAGERS_ONLY,
  },
  { route: "GET /console/api/workspaces/:id/budgets", method: "GET", path: () => `/console/api/workspaces/${cg.team}/budgets`, expect: EVERYONE },
  {
    route: "PUT /console/api/workspaces/:id/budgets/:interval",
    method: "PUT",
    path: () => `/console/api/workspaces/${cg.team}/budgets/monthly`,
    body: () => ({ limit_usd: 100 }),
    expect: MANAGERS_ONLY,
  },
  {
    route: "DELETE /console/api/workspaces/:id/budgets/:interval",
    method: "DELETE",
    path: async () => {
      const ws = await ownerWorkspace();
      await cg.gw.api(`/api/v1/workspaces/${ws}/budgets/weekly`, { method: "PUT", json: { limit_usd: 5 } });
      return `/console/api/workspaces/${ws}/budgets/weekly`;
    },
    expect: MANAGERS_ONLY,
  },
  {
    route: "POST /console/api/workspaces/:id/webhook-secret",
    method: "POST",
    path: () => `/console/api/workspaces/${cg.team}/webhook-secret`,
    expect: MANAGERS_ONLY,
  },
  { route: "GET /console/api/users", method: "GET", path: () => "/console/api/users", expect: MANAGERS_ONLY },
  { route: "GET /console/api/byok (all)", method: "GET", path: () => "/console/api/byok", expect: MANAGERS_ONLY },
  { route: "GET /console/api/byok (the member's workspace)", method: "GET", path: () => `/console/api/byok?workspace_id=${cg.team}`, expect: EVERYONE },
  {
    route: "POST /console/api/byok",
    method: "POST",
    path: () => "/console/api/byok",
    body: () => ({ provider: "oc", key: `sk-console-${fresh()}-0123456789` }),
    expect: { owner: 201, admin: 201, member: 403, none: 401 },
  },
  {
    route: "PATCH /console/api/byok/:id (rotate)",
    method: "PATCH",
    path: async () => `/console/api/byok/${await ownerByok()}`,
    body: () => ({ key: `sk-rotated-${fresh()}-0123456789` }),
    expect: MANAGERS_ONLY,
  },
  { route: "DELETE /console/api/byok/:id", method: "DELETE", path: async () => `/console/api/byok/${await ownerByok()}`, expect: MANAGERS_ONLY },
  { route: "GET /console/api/presets (the member's workspace)", method: "GET", path: () => `/console/api/presets?workspace_id=${cg.team}`, expect: EVERYONE },
  { route: "GET /console/api/presets (another workspace)", method: "GET", path: () => `/console/api/presets?workspace_id=${defaultWs}`, expect: MANAGERS_ONLY },
  {
    route: "GET /console/api/presets/:slug/versions",
    method: "GET",
    path: () => `/console/api/presets/nope/versions?workspace_id=${defaultWs}`,
    expect: { owner: 404, admin: 404, member: 403, none: 401 },
  },
  {
    route: "GET /console/api/presets/:slug/versions/:version",
    method: "GET",
    path: () => `/console/api/presets/nope/versions/1?workspace_id=${defaultWs}`,
    expect: { owner: 404, admin: 404, member: 403, none: 401 },
  },
  { route: "GET /console/api/jobs", method: "GET", path: () => "/console/api/jobs?state=dead", expect: MANAGERS_ONLY },
  {
    route: "POST /console/api/jobs/:id/retry",
    method: "POST",
    path: () => "/console/api/jobs/no-such-job/retry",
    expect: { owner: 404, admin: 404, member: 403, none: 401 },
  },
  { route: "GET /console/api/videos (the member's workspace)", method: "GET", path: () => `/console/api/videos?workspace_id=${cg.team}`, expect: EVERYONE },
  { route: "GET /console/api/videos (another workspace)", method: "GET", path: () => `/console/api/videos?workspace_id=${defaultWs}`, expect: MANAGERS_ONLY },
  {
    route: "GET /console/api/generations/:id/content (the member's workspace)",
    method: "GET",
    path: () => `/console/api/generations/${generationInTeam}/content`,
    expect: EVERYONE,
  },
  {
    route: "GET /console/api/generations/:id/content (another workspace's)",
    method: "GET",
    path: () => `/console/api/generations/${generationInDefault}/content`,
    expect: { owner: 200, admin: 200, member: 404, none: 401 },
  },
  {
    route: "GET /console/api/generations/:id/content (nothing kept)",
    method: "GET",
    path: () => `/console/api/generations/${generationNotKept}/content`,
    expect: { owner: 404, admin: 404, member: 404, none: 401 },
  },
  { route: "GET /console/api/destination-types", method: "GET", path: () => "/console/api/destination-types", expect: EVERYONE },
  { route: "GET /console/api/destinations (the default workspace)", method: "GET", path: () => "/console/api/destinations", expect: MANAGERS_ONLY },
  {
    route: "GET /console/api/destinations (the member's workspace)",
    method: "GET",
    path: () => `/console/api/destinations?workspace_id=${cg.team}`,
    expect: EVERYONE,
  },
  {
    route: "GET /console/api/destinations (another workspace)",
    method: "GET",
    path: () => `/console/api/destinations?workspace_id=${defaultWs}`,
    expect: MANAGERS_ONLY,
  },
  {
    route: "POST /console/api/destinations (tested first)",
    method: "POST",
    path: () => "/console/api/destinations",
    body: webhookBody,
    expect: { owner: 201, admin: 201, member: 403, none: 401 },
  },
  { route: "POST /console/api/destinations/test", method: "POST", path: () => "/console/api/destinations/test", body: webhookBody, expect: MANAGERS_ONLY },
  {
    route: "PATCH /console/api/destinations/:id (the member's workspace)",
    method: "PATCH",
    path: () => `/console/api/destinations/${teamDestination}`,
    body: () => ({ enabled: false }),
    expect: MANAGERS_ONLY,
  },
  {
    route: "POST /console/api/destinations/:id/test",
    method: "POST",
    path: () => `/console/api/destinations/${teamDestination}/test`,
    body: () => ({}),
    expect: MANAGERS_ONLY,
  },
  {
    route: "DELETE /console/api/destinations/:id",
    method: "DELETE",
    path: async () => `/console/api/destinations/${await ownerDestination()}`,
    expect: MANAGERS_ONLY,
  },
];

describe("who may call each console route", () => {
  for (const row of ROUTES) {
    for (const who of ["owner", "admin", "member", null] as const) {
      test(`${row.route} as ${who ?? "nobody"}: ${row.expect[who ?? "none"]}`, async () => {
        const res = await cg.call(who, row.method, await row.path(), row.body?.());
        const text = await res.text();
        const expected = row.expect[who ?? "none"];
        // the body shows only when the status is not the one expected
        expect({ status: res.status, body: res.status === expected ? "" : text }).toEqual({ status: expected, body: "" });
        expect(res.headers.get("x-frame-options")).toBe("DENY");
        expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
        if (who === null && row.route !== "GET /console")
          expect(JSON.parse(text)).toEqual({ error: { code: 401, message: "Not signed in: sign in at /login" } });
      });
    }
  }
});

describe("sessions, not keys, and CSRF", () => {
  test("without a session the page sends the browser to sign in and back", async () => {
    const res = await cg.call(null, "GET", "/console");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?next=%2Fconsole");
  });

  test("a management key does not open the console", async () => {
    const res = await fetch(`${cg.gw.url}/console/api/me`, { headers: { authorization: `Bearer ${cg.gw.adminKey}` } });
    expect(res.status).toBe(401);
  });

  test("a session cookie does not open the public API", async () => {
    const res = await fetch(`${cg.gw.url}/api/v1/keys`, { headers: { cookie: cg.sessions.owner.cookie } });
    expect(res.status).toBe(401);
  });

  test("a change without the CSRF token, or with another session's, is 403 and changes nothing", async () => {
    const before = ((await (await cg.call("owner", "GET", "/console/api/keys")).json()) as { data: unknown[] }).data.length;
    for (const token of [undefined, cg.sessions.admin.csrfToken, "x"]) {
      const res = await fetch(`${cg.gw.url}/console/api/keys`, {
        method: "POST",
        headers: { cookie: cg.sessions.owner.cookie, "content-type": "application/json", ...(token ? { "x-csrf-token": token } : {}) },
        body: JSON.stringify({ name: "csrf" }),
      });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { metadata: unknown } }).error.metadata).toEqual({ field: "x-csrf-token" });
    }
    const after = ((await (await cg.call("owner", "GET", "/console/api/keys")).json()) as { data: unknown[] }).data.length;
    expect(after).toBe(before);
  });

  test("a destination change without the CSRF token, or with another session's, is 403, sends no probe and changes nothing", async () => {
    const id = await ownerDestination();
    const before = await (await cg.gw.api(`/api/v1/observability/destinations/${id}`)).json();
    const probes = receiver.requests.length;
    const changes: Array<[string, string, unknown]> = [
      ["POST", "/console/api/destinations", webhookBody()],
      ["POST", "/console/api/destinations/test", webhookBody()],
      ["PATCH", `/console/api/destinations/${id}`, { enabled: false, name: "changed" }],
      ["POST", `/console/api/destinations/${id}/test`, {}],
      ["DELETE", `/console/api/destinations/${id}`, undefined],
    ];
    const team = () =>
      cg.gw
        .api(`/api/v1/observability/destinations?workspace_id=${cg.team}`)
        .then((r) => r.json())
        .then((r) => (r as { total_count: number }).total_count);
    const inTeam = await team();
    for (const [method, path, body] of changes) {
      for (const token of [undefined, cg.sessions.admin.csrfToken]) {
        const res = await fetch(`${cg.gw.url}${path}`, {
          method,
          headers: { cookie: cg.sessions.owner.cookie, "content-type": "application/json", ...(token ? { "x-csrf-token": token } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        expect({ method, path, status: res.status }).toEqual({ method, path, status: 403 });
        expect(((await res.json()) as { error: { metadata: unknown } }).error.metadata).toEqual({ field: "x-csrf-token" });
      }
    }
    expect(receiver.requests.length).toBe(probes);
    expect(await (await cg.gw.api(`/api/v1/observability/destinations/${id}`)).json()).toEqual(before);
    expect(await team()).toBe(inTeam);
  });

  test("a destination's connection test from the console is the API's probe: the receiver gets X-Test-Connection, nothing is saved", async () => {
    const count = async () =>
      ((await (await cg.call("owner", "GET", `/console/api/destinations?workspace_id=${cg.team}`)).json()) as { total_count: number }).total_count;
    const before = await count();
    receiver.reset();
    const res = await cg.call("admin", "POST", "/console/api/destinations/test", webhookBody());
    expect(await res.json()).toEqual({ data: { ok: true } });
    expect(receiver.requests.map((r) => [r.method, r.path, r.headers["x-test-connection"]])).toEqual([["POST", "/hook", "true"]]);
    expect(await count()).toBe(before);
    // a failing probe is the create's 400, quoting the receiver
    receiver.script({ status: 503, text: "down for maintenance" });
    const failed = await cg.call("admin", "POST", `/console/api/destinations/${teamDestination}/test`, { config: { method: "PUT" } });
    expect(failed.status).toBe(400);
    expect(((await failed.json()) as { error: { message: string } }).error.message).toContain("Connection test failed");
    expect(receiver.requests.at(-1)?.method).toBe("PUT");
  });

  test("the page and its assets carry the console's headers; the page holds no token", async () => {
    const res = await cg.call("owner", "GET", "/console");
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const page = await res.text();
    expect(page).not.toContain(cg.sessions.owner.csrfToken);
    const script = page.match(/src="(\/console\/assets\/[^"]+\.js)"/)![1]!;
    const asset = await fetch(`${cg.gw.url}${script}`, { headers: { "accept-encoding": "br" } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-encoding")).toBe("br");
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(asset.headers.get("x-frame-options")).toBe("DENY");
    const etag = asset.headers.get("etag")!;
    expect((await fetch(`${cg.gw.url}${script}`, { headers: { "if-none-match": etag } })).status).toBe(304);
    expect((await fetch(`${cg.gw.url}/console/assets/console-0000000000000000.js`)).status).toBe(404);
  });
});

describe("who may call a route is decided before its input is read", () => {
  const malformed = { name: 5, slug: "refused-before-validation" };

  test("a malformed body: 401 without a session, 403 without the CSRF token or for a member on a managers' route, 400 naming the field only for a caller the route admits", async () => {
    const noToken = await fetch(`${cg.gw.url}/console/api/workspaces`, {
      method: "POST",
      headers: { cookie: cg.sessions.owner.cookie, "content-type": "application/json" },
      body: JSON.stringify(malformed),
    });
    const answers = [
      await cg.call(null, "POST", "/console/api/workspaces", malformed),
      noToken,
      await cg.call("member", "POST", "/console/api/workspaces", malformed),
      await cg.call("owner", "POST", "/console/api/workspaces", malformed),
    ];
    expect(await Promise.all(answers.map(async (res) => [res.status, ((await res.json()) as { error: unknown }).error]))).toEqual([
      [401, { code: 401, message: "Not signed in: sign in at /login" }],
      [403, { code: 403, message: "Missing or invalid CSRF token: send the session's token in the x-csrf-token header", metadata: { field: "x-csrf-token" } }],
      [403, { code: 403, message: "Only organization owners and admins may do this" }],
      [400, { code: 400, message: "Invalid field 'name': expected a string of 1 to 100 characters, got 5", metadata: { location: "body", field: "name" } }],
    ]);
  });
});

describe("the console's key forms", () => {
  const errorOf = async (res: Response) => [res.status, ((await res.json()) as { error: unknown }).error];
  const unknownField = (field: string) => [400, { code: 400, message: `Invalid field '${field}': unknown field`, metadata: { field, location: "body" } }];

  test("a key is always the signed-in user's own: another creator or an external user is refused, naming the field", async () => {
    expect(await errorOf(await cg.call("owner", "POST", "/console/api/keys", { name: fresh(), creator_user_id: "member-user" }))).toEqual(
      unknownField("creator_user_id"),
    );
    expect(await errorOf(await cg.call("owner", "POST", "/console/api/keys", { name: fresh(), external: { user: "u" } }))).toEqual(unknownField("external"));
  });

  test("an update may move the key's expiry, which the public PATCH cannot; other fields are refused", async () => {
    const created = (await (await cg.call("owner", "POST", "/console/api/keys", { name: fresh() })).json()) as { data: { hash: string } };
    const expiry = new Date(Math.floor(Date.now() / 1000) * 1000 + 86_400_000).toISOString();
    const moved = await cg.call("owner", "PATCH", `/console/api/keys/${created.data.hash}`, { expires_at: expiry });
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as { data: { expires_at: string } }).data.expires_at).toBe(expiry);
    expect(await errorOf(await cg.call("owner", "PATCH", `/console/api/keys/${created.data.hash}`, { workspace_id: cg.team }))).toEqual(
      unknownField("workspace_id"),
    );
  });
});
