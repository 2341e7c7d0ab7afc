// The audit log through the API: every kind of administrative change made through the management
// API and the sign-in pages is one event, with who, where and what changed; no secret the test used
// appears in any event; a refused change writes none; the listing pages by cursor and filters.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ADMIN_KEY, type TestGateway } from "../../support/gateway";
import { createUserWithPassword, loginForm, setCookies, signIn } from "../../support/sign-in";
import { type AuditGateway, adminKeyHash, startAuditGateway } from "./harness";

let gw: TestGateway;
let call: AuditGateway["call"];
let allEvents: AuditGateway["events"];
const UA = "audit-test/1.0";
const SECRETS: string[] = [
  ADMIN_KEY,
  "sk-byok-first-secret-0001",
  "sk-byok-second-secret-0002",
  "sk-lf-secret-value-0003",
  "Bearer header-secret-0004",
  "the password 0005",
  "a wrong password 0006",
];
let keyHash = "";
let teamId = "";
let byokId = "";
let destinationId = "";
let webhookSecret = "";
let rawKey = "";

beforeAll(async () => {
  ({
    gw,
    call,
    events: allEvents,
  } = await startAuditGateway(UA, {
    lookup: async (host) => (host === "us.cloud.langfuse.com" ? [{ address: "93.184.216.34", family: 4 }] : Promise.reject(new Error(`ENOTFOUND ${host}`))),
  }));
  const created = await call("POST", "/api/v1/keys", { name: "k1" });
  keyHash = created.data.hash;
  rawKey = created.key;
  SECRETS.push(rawKey);
  await call("PATCH", `/api/v1/keys/${keyHash}`, { name: "k1b", limit: 5 });
  teamId = (await call("POST", "/api/v1/workspaces", { name: "Team", slug: "team" })).data.id;
  await call("PATCH", "/api/v1/workspaces/team", { description: "the team" });
  await call("POST", "/api/v1/organization/members", { id: "alice", email: "alice@example.com", role: "member" });
  await call("POST", "/api/v1/workspaces/team/members/add", { user_ids: ["alice"] });
  await call("POST", "/api/v1/workspaces/team/members/remove", { user_ids: ["alice"] });
  byokId = (await call("POST", "/api/v1/byok", { provider: "mock", key: SECRETS[1], workspace_id: teamId })).data.id;
  await call("PATCH", `/api/v1/byok/${byokId}`, { key: SECRETS[2] });
  await call("DELETE", `/api/v1/byok/${byokId}`);
  await call("POST", "/api/v1/presets/p1/chat/completions", { model: "test/alpha", temperature: 0.5, messages: [{ role: "system", content: "be brief" }] });
  await call("POST", "/api/v1/presets/p1/chat/completions", { model: "test/alpha", temperature: 0.7, messages: [{ role: "system", content: "be brief" }] });
  await call("PUT", "/api/v1/workspaces/team/budgets/monthly", { limit_usd: 10 });
  await call("DELETE", "/api/v1/workspaces/team/budgets/monthly");
  webhookSecret = (await call("POST", "/api/v1/workspaces/team/webhook-secret", {})).data.secret;
  SECRETS.push(webhookSecret);
  destinationId = (
    await call("POST", "/api/v1/observability/destinations?skip_test=true", {
      type: "langfuse",
      name: "lf",
      workspace_id: teamId,
      config: { publicKey: "pk-lf-public", secretKey: SECRETS[3], headers: { Authorization: SECRETS[4] } },
    })
  ).data.id;
  await call("PATCH", `/api/v1/observability/destinations/${destinationId}?skip_test=true`, { name: "lf2", config: { secretKey: `${SECRETS[3]}-rotated` } });
  await call("DELETE", `/api/v1/observability/destinations/${destinationId}`);
  await call("DELETE", `/api/v1/keys/${keyHash}`);
  await call("DELETE", "/api/v1/workspaces/team");
  // refused: no event
  expect((await gw.api("/api/v1/workspaces", { method: "POST", json: { name: "Default again", slug: "default" } })).status).toBe(409);
  // people: a password set through the services, a failed and a good sign-in, a sign-out
  await createUserWithPassword(gw.ctx, { id: "bob", email: "bob@example.com", password: SECRETS[5]!, role: "admin" });
  const form = await loginForm(gw.url);
  const failed = await fetch(`${gw.url}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: form.formCookie, "user-agent": UA },
    body: new URLSearchParams({ csrf_token: form.csrfToken, email: "bob@example.com", password: SECRETS[6]! }),
  });
  expect(failed.status).toBe(401);
  const session = await signIn(gw.url, "bob@example.com", SECRETS[5]!);
  const out = await fetch(`${gw.url}/logout`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: session.cookie },
    body: new URLSearchParams({ csrf_token: session.csrfToken }),
  });
  expect([out.status, setCookies(out).get("gw_session")]).toEqual([303, ""]);
  await call("DELETE", "/api/v1/organization/members/alice");
});
afterAll(async () => {
  await gw?.close();
});

describe("audit log", () => {
  test("one event per change, oldest to newest, the first start's included", async () => {
    const events = await allEvents();
    expect(events.map((e) => e.action).reverse()).toEqual([
      "user.create",
      "workspace.create",
      "key.create",
      "key.create",
      "key.update",
      "workspace.create",
      "workspace.update",
      "user.create",
      "member.add",
      "member.remove",
      "byok.create",
      "byok.update",
      "byok.delete",
      "preset.create",
      "preset.update",
      "budget.set",
      "budget.delete",
      "workspace.update",
      "destination.create",
      "destination.update",
      "destination.delete",
      "key.delete",
      "workspace.delete",
      "user.create",
      "user.password",
      "session.sign_in_failed",
      "session.sign_in",
      "session.sign_out",
      "user.delete",
    ]);
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => String(events.length - i)));
    for (const e of events) expect(e.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test("an event names the actor, the target, the workspace, where it came from and what changed", async () => {
    const [update] = await allEvents("&action=key.update");
    expect(update).toEqual({
      id: "5",
      created_at: update.created_at,
      actor: { type: "key", id: adminKeyHash, label: "Admin key (GATEWAY_ADMIN_KEY)" },
      action: "key.update",
      target: { type: "key", id: keyHash },
      workspace_id: update.workspace_id,
      ip: "127.0.0.1",
      user_agent: UA,
      changes: { name: { from: "k1", to: "k1b" }, limit: { from: null, to: 5 } },
      hash: update.hash,
    });
    const [members] = await allEvents("&action=member.add");
    expect([members.target, members.workspace_id, members.changes]).toEqual([
      { type: "member", id: "alice" },
      teamId,
      { user_id: { from: null, to: "alice" }, role: { from: null, to: "member" } },
    ]);
    const [budget] = await allEvents("&action=budget.set");
    expect([budget.target, budget.changes]).toEqual([{ type: "budget", id: `${teamId}:monthly` }, { limit_usd: { from: null, to: 10 } }]);
    const [preset] = await allEvents("&action=preset.update");
    expect(preset.changes.version).toEqual({ from: 1, to: 2 });
  });

  test("secrets read [redacted]: BYOK keys, webhook secrets, destination secrets and headers, passwords", async () => {
    const [rotated] = await allEvents("&action=byok.update");
    expect(rotated.changes.key).toEqual({ from: "[redacted]", to: "[redacted]" });
    expect(rotated.changes.label).toBeDefined();
    const [hook] = (await allEvents("&action=workspace.update")).filter((e) => e.changes.webhook_secret);
    expect(hook.changes).toEqual({ webhook_secret: { from: null, to: "[redacted]" } });
    const [destination] = await allEvents("&action=destination.create");
    expect(destination.changes.config.to).toEqual({
      publicKey: "pk-lf-public",
      secretKey: "[redacted]",
      headers: { Authorization: "[redacted]" },
      baseUrl: "https://us.cloud.langfuse.com",
    });
    expect(destination.changes.sealed_config).toEqual({ from: null, to: "[redacted]" });
    const [password] = await allEvents("&action=user.password");
    expect(password.changes).toEqual({ password: { from: null, to: "[redacted]" } });
  });

  test("no raw secret used by the test appears anywhere in the log", async () => {
    const text = JSON.stringify(await allEvents());
    for (const secret of SECRETS) expect(text.includes(secret)).toBe(false);
    // the masked forms the API shows (first characters of a secret) stay out too
    expect(text.includes("sk-l…")).toBe(false);
  });

  test("sign-ins: the person as actor, the email tried on a failure, the method", async () => {
    const [failed] = await allEvents("&action=session.sign_in_failed");
    expect([failed.actor, failed.target, failed.changes, failed.user_agent]).toEqual([
      { type: "user", id: null, label: "bob@example.com" },
      { type: "user", id: null },
      { method: { from: null, to: "password" }, reason: { from: null, to: "wrong email or password" } },
      UA,
    ]);
    const [ok] = await allEvents("&action=session.sign_in");
    expect([ok.actor, ok.target, ok.changes]).toEqual([
      { type: "user", id: "bob", label: "bob@example.com" },
      { type: "user", id: "bob" },
      { method: { from: null, to: "password" } },
    ]);
    const [out] = await allEvents("&action=session.sign_out");
    expect(out.actor).toEqual({ type: "user", id: "bob", label: "bob@example.com" });
  });

  test("keyset pages of 4 walk the whole log; filters by actor, target and time", async () => {
    const all = await allEvents();
    const walked: any[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const res = await gw.api(`/api/v1/audit-logs?limit=4${cursor ? `&cursor=${cursor}` : ""}`);
      const page = (await res.json()) as any;
      walked.push(...page.data);
      expect(page.data.length).toBeLessThanOrEqual(4);
      cursor = page.next_cursor;
    }
    expect(walked).toEqual(all);
    const byTarget = await allEvents(`&target_id=${keyHash}`);
    expect(byTarget.map((e) => e.action)).toEqual(["key.delete", "key.update", "key.create"]);
    const byActor = await allEvents("&actor_id=bob");
    expect(byActor.map((e) => e.action)).toEqual(["session.sign_out", "session.sign_in"]);
    const sixth = all.find((e) => e.id === "6")!;
    const from = await allEvents(`&since=${encodeURIComponent(sixth.created_at)}`);
    expect(from.every((e) => Date.parse(e.created_at) >= Date.parse(sixth.created_at))).toBe(true);
    expect(from.some((e) => e.id === "6")).toBe(true);
    const before = await allEvents(`&until=${encodeURIComponent(sixth.created_at)}`);
    expect(before.every((e) => Date.parse(e.created_at) < Date.parse(sixth.created_at))).toBe(true);
  });

  test("bad query parameters are 400s naming them; an inference key gets 403", async () => {
    const bad = await gw.api("/api/v1/audit-logs?since=yesterday");
    expect([bad.status, ((await bad.json()) as any).error.metadata.field]).toEqual([400, "since"]);
    const cursor = await gw.api("/api/v1/audit-logs?cursor=abc");
    expect(cursor.status).toBe(400);
    const key = await call("POST", "/api/v1/keys", { name: "inference" });
    const refused = await gw.api("/api/v1/audit-logs", { key: key.key });
    expect(refused.status).toBe(403);
  });

  test("the chain verifies through the API", async () => {
    const res = await gw.api("/api/v1/audit-logs/verify");
    const verdict = (await res.json()) as any;
    expect(verdict).toMatchObject({ ok: true, first_id: "1", broken_id: null, reason: null });
    expect(verdict.events).toBe(Number(verdict.last_id));
  });
});
