// SCIM 2.0 Users (RFC 7644) with raw fetch, in the shapes of the RFC's examples and of Okta's and
// Entra ID's provisioning requests: tokens, discovery, create, the userName filter and pages,
// PUT, both PATCH shapes, deactivation that ends a live session at once, DELETE that keeps the
// user's keys (disabled) and spend, and every error in SCIM's shape.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestGateway, type TestGateway } from "../../support/gateway";
import { createUserWithPassword, signIn } from "../../support/sign-in";

let gw: TestGateway;
let token = "";
let tokenId = "";
const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

async function scim(method: string, path: string, body?: unknown, auth: string | null = token): Promise<{ status: number; type: string | null; body: any }> {
  const res = await fetch(`${gw.url}/scim/v2${path}`, {
    method,
    headers: { ...(auth !== null && { authorization: `Bearer ${auth}` }), ...(body !== undefined && { "content-type": "application/scim+json" }) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get("content-type"), body: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  gw = await startTestGateway();
  const res = await gw.api("/api/v1/scim/tokens", { method: "POST", json: { name: "Okta" } });
  expect(res.status).toBe(201);
  const made = (await res.json()) as any;
  token = made.token;
  tokenId = made.data.id;
});
afterAll(async () => {
  await gw?.close();
});

describe("tokens and discovery", () => {
  test("POST /api/v1/scim/tokens: 201 with the raw token once; GET lists it without; DELETE revokes it", async () => {
    expect(token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
    const list = (await (await gw.api("/api/v1/scim/tokens")).json()) as any;
    expect(list.data).toEqual([{ id: tokenId, name: "Okta", created_at: expect.any(String) }]);
    const other = (await (await gw.api("/api/v1/scim/tokens", { method: "POST", json: { name: "Entra" } })).json()) as any;
    expect((await scim("GET", "/ServiceProviderConfig", undefined, other.token)).status).toBe(200);
    expect((await gw.api(`/api/v1/scim/tokens/${other.data.id}`, { method: "DELETE" })).status).toBe(200);
    const revoked = await scim("GET", "/ServiceProviderConfig", undefined, other.token);
    expect([revoked.status, revoked.body.schemas, revoked.body.status]).toEqual([401, [ERROR], "401"]);
    expect((await gw.api(`/api/v1/scim/tokens/${other.data.id}`, { method: "DELETE" })).status).toBe(404);
  });

  test("gateway scim token create prints a token that works, made by the command line", async () => {
    const made = Bun.spawnSync(["bun", "src/main.ts", "scim", "token", "create", "--name", "Keycloak"], {
      env: { ...process.env, LOG_LEVEL: "error", GATEWAY_CONFIG: "", DATABASE_URL: `file:${gw.dir}/gateway.db`, GATEWAY_ADMIN_KEY: gw.adminKey },
    });
    const raw = made.stdout.toString().trim();
    expect([made.exitCode, raw]).toEqual([0, expect.stringMatching(/^scim_[A-Za-z0-9_-]{43}$/)]);
    expect((await scim("GET", "/ServiceProviderConfig", undefined, raw)).status).toBe(200);
    const event = ((await (await gw.api("/api/v1/audit-logs?action=scim_token.create&limit=1")).json()) as any).data[0];
    expect([event.actor.type, event.actor.label, event.changes]).toEqual(["cli", "gateway scim token create", { name: { from: null, to: "Keycloak" } }]);
    expect(JSON.stringify(event).includes(raw)).toBe(false);
  });

  test("no token, a wrong one and a management key are 401 in SCIM's shape", async () => {
    for (const auth of [null, "scim_wrong", gw.adminKey]) {
      const res = await scim("GET", "/Users", undefined, auth);
      expect([res.status, res.type, res.body.schemas, res.body.status]).toEqual([401, "application/scim+json; charset=utf-8", [ERROR], "401"]);
    }
  });

  test("ServiceProviderConfig, Schemas and ResourceTypes", async () => {
    const config = await scim("GET", "/ServiceProviderConfig");
    expect([config.body.patch, config.body.filter, config.body.bulk.supported]).toEqual([{ supported: true }, { supported: true, maxResults: 200 }, false]);
    const types = await scim("GET", "/ResourceTypes");
    expect(types.body.Resources.map((r: any) => [r.id, r.endpoint, r.schema])).toEqual([
      ["User", "/Users", USER],
      ["Group", "/Groups", "urn:ietf:params:scim:schemas:core:2.0:Group"],
    ]);
    const schemas = await scim("GET", "/Schemas");
    expect(schemas.body.Resources[0].attributes.find((a: any) => a.name === "userName")).toMatchObject({ required: true, uniqueness: "server" });
  });
});

describe("Users", () => {
  let ada = "";

  test("create (RFC 7643's example shape): 201 with Location, the gateway user's id, userName = email; a duplicate userName is 409 uniqueness", async () => {
    const created = await scim("POST", "/Users", {
      schemas: [USER],
      externalId: "00u1okta",
      userName: "ada@example.com",
      name: { givenName: "Ada", familyName: "Lovelace" },
      emails: [{ value: "ada@example.com", type: "work", primary: true }],
      active: true,
    });
    expect(created.status).toBe(201);
    ada = created.body.id;
    expect(created.body).toEqual({
      schemas: [USER],
      id: ada,
      externalId: "00u1okta",
      userName: "ada@example.com",
      name: { formatted: "Ada Lovelace", givenName: "Ada", familyName: "Lovelace" },
      displayName: "Ada Lovelace",
      emails: [{ value: "ada@example.com", type: "work", primary: true }],
      active: true,
      groups: [],
      meta: { resourceType: "User", created: expect.any(String), lastModified: expect.any(String), location: `${gw.url}/scim/v2/Users/${ada}` },
    });
    const members = (await (await gw.api("/api/v1/organization/members?limit=100")).json()) as any;
    expect(members.data.find((u: any) => u.id === ada)).toMatchObject({ email: "ada@example.com", name: "Ada Lovelace", role: "member" });
    const dup = await scim("POST", "/Users", { schemas: [USER], userName: "ADA@example.com" });
    expect([dup.status, dup.body.scimType, dup.body.status]).toEqual([409, "uniqueness", "409"]);
    const missing = await scim("POST", "/Users", { schemas: [USER], name: { givenName: "x" } });
    expect([missing.status, missing.body.scimType]).toEqual([400, "invalidValue"]);
    const garbage = await scim("POST", "/Users", "{not json");
    expect([garbage.status, garbage.body.scimType]).toEqual([400, "invalidSyntax"]);
  });

  test("filter userName eq, startIndex and count; an unreadable filter is 400 invalidFilter", async () => {
    for (const n of [1, 2, 3]) expect((await scim("POST", "/Users", { schemas: [USER], userName: `user${n}@example.com` })).status).toBe(201);
    const found = await scim("GET", `/Users?filter=${encodeURIComponent('userName eq "ADA@example.com"')}`);
    expect([found.body.totalResults, found.body.Resources.map((u: any) => u.id)]).toEqual([1, [ada]]);
    const none = await scim("GET", `/Users?filter=${encodeURIComponent('userName eq "nobody@example.com"')}`);
    expect([none.body.totalResults, none.body.Resources]).toEqual([0, []]);
    const all = await scim("GET", "/Users");
    expect(all.body.totalResults).toBe(5);
    const page = await scim("GET", "/Users?startIndex=2&count=2");
    expect([page.body.totalResults, page.body.itemsPerPage, page.body.startIndex]).toEqual([5, 2, 2]);
    expect(page.body.Resources.map((u: any) => u.id)).toEqual(all.body.Resources.slice(1, 3).map((u: any) => u.id));
    const co = await scim("GET", `/Users?filter=${encodeURIComponent('userName sw "user" and active eq true')}`);
    expect(co.body.totalResults).toBe(3);
    const bad = await scim("GET", `/Users?filter=${encodeURIComponent("userName eq")}`);
    expect([bad.status, bad.body.scimType]).toEqual([400, "invalidFilter"]);
    expect((await scim("GET", "/Users/no-such-user")).status).toBe(404);
  });

  test("PUT replaces; PATCH in Okta's shape (no path, an object) and Entra's (capitalised op, path, a string boolean)", async () => {
    const put = await scim("PUT", `/Users/${ada}`, {
      schemas: [USER],
      userName: "ada.l@example.com",
      name: { givenName: "Ada", familyName: "King" },
      active: true,
    });
    expect([put.status, put.body.userName, put.body.name.formatted]).toEqual([200, "ada.l@example.com", "Ada King"]);
    const okta = await scim("PATCH", `/Users/${ada}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", value: { name: { givenName: "Augusta", familyName: "King" } } }],
    });
    expect([okta.status, okta.body.name.givenName]).toEqual([200, "Augusta"]);
    const entra = await scim("PATCH", `/Users/${ada}`, {
      schemas: [PATCH],
      Operations: [
        { op: "Replace", path: "userName", value: "ada@example.com" },
        { op: "Add", path: "externalId", value: "entra-object-id" },
      ],
    });
    expect([entra.status, entra.body.userName, entra.body.externalId]).toEqual([200, "ada@example.com", "entra-object-id"]);
    const badOp = await scim("PATCH", `/Users/${ada}`, { schemas: [PATCH], Operations: [{ op: "explode", path: "userName" }] });
    expect([badOp.status, badOp.body.scimType]).toEqual([400, "invalidSyntax"]);
  });

  test("active false ends a live session at once and refuses sign-in; true lets the user back in", async () => {
    await createUserWithPassword(gw.ctx, { id: "lin", email: "lin@example.com", password: "lin's password 1" });
    const session = await signIn(gw.url, "lin@example.com", "lin's password 1");
    const me = () => fetch(`${gw.url}/console/api/me`, { headers: { cookie: session.cookie } });
    expect((await me()).status).toBe(200);
    const off = await scim("PATCH", "/Users/lin", { schemas: [PATCH], Operations: [{ op: "Replace", path: "active", value: "False" }] });
    expect([off.status, off.body.active]).toEqual([200, false]);
    expect((await me()).status).toBe(401);
    await expect(signIn(gw.url, "lin@example.com", "lin's password 1")).rejects.toThrow("sign-in failed: 401");
    const on = await scim("PATCH", "/Users/lin", { schemas: [PATCH], Operations: [{ op: "replace", value: { active: true } }] });
    expect(on.body.active).toBe(true);
    expect((await signIn(gw.url, "lin@example.com", "lin's password 1")).cookie).toStartWith("gw_session=");
    const events = ((await (await gw.api("/api/v1/audit-logs?target_id=lin&action=user.update")).json()) as any).data;
    expect(events.map((e: any) => [e.actor.type, e.actor.label, e.changes])).toEqual([
      ["scim", "Okta", { active: { from: false, to: true } }],
      ["scim", "Okta", { active: { from: true, to: false } }],
    ]);
  });

  test("a deactivated user's keys stop authenticating; DELETE removes the user, disables (keeps) their keys and their spend", async () => {
    const key = (await (await gw.api("/api/v1/keys", { method: "POST", json: { name: "ada's", creator_user_id: ada } })).json()) as any;
    const call = () => fetch(`${gw.url}/api/v1/key`, { headers: { authorization: `Bearer ${key.key}` } });
    expect((await call()).status).toBe(200);
    await scim("PATCH", `/Users/${ada}`, { schemas: [PATCH], Operations: [{ op: "replace", path: "active", value: false }] });
    expect((await call()).status).toBe(401);
    const deleted = await fetch(`${gw.url}/scim/v2/Users/${ada}`, { method: "DELETE", headers: { authorization: `Bearer ${token}` } });
    expect(deleted.status).toBe(204);
    expect((await scim("GET", `/Users/${ada}`)).status).toBe(404);
    const stored = (await (await gw.api(`/api/v1/keys/${key.data.hash}`)).json()) as any;
    expect(stored.data.disabled).toBe(true);
    expect((await scim("DELETE", "/Users/owner")).body.scimType).toBe("mutability");
  });
});
