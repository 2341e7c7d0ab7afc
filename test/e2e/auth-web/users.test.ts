// People in the organization from the command line and the API: passwords read from stdin,
// invite links, and removal, after which the user's keys stop working at once and their
// sessions end.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { signedInUser } from "../../../src/auth-web/session";
import { loadConfig } from "../../../src/config";
import { silentLogger } from "../../../src/logger";
import { type RunningGateway, startGateway } from "../../../src/server";
import { ADMIN_KEY, tempDir } from "../../support/gateway";
import { hiddenField, setCookies, signIn } from "../../support/sign-in";

// argon2id checks take a few hundred ms each on a loaded machine; bun's default per-test timeout is 5 s
setDefaultTimeout(30_000);

const dir = tempDir();
let gw: RunningGateway;
let env: Record<string, string>;

function run(args: string[], stdin?: string) {
  const proc = Bun.spawnSync(["bun", "src/main.ts", ...args], {
    env: { ...process.env, LOG_LEVEL: "error", ...env },
    stdin: stdin === undefined ? "ignore" : Buffer.from(stdin),
  });
  return { code: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}

const api = (path: string, init: RequestInit & { key?: string } = {}) =>
  fetch(gw.url + path, { ...init, headers: { authorization: `Bearer ${init.key ?? ADMIN_KEY}`, ...(init.headers as Record<string, string>) } });

const sessionOf = (cookie: string) => signedInUser(gw.ctx, new Request(gw.url, { headers: { cookie } }));

async function keyFor(user: string): Promise<string> {
  const res = await api("/api/v1/keys", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: `key of ${user}`, creator_user_id: user }),
  });
  return ((await res.json()) as { key: string }).key;
}

beforeAll(async () => {
  env = { DATABASE_URL: `file:${join(dir, "g.db")}`, GATEWAY_ADMIN_KEY: ADMIN_KEY };
  gw = await startGateway(loadConfig({ ...env, PORT: "0" }), { hostname: "127.0.0.1", logger: silentLogger });
  env.GATEWAY_PUBLIC_URL = gw.url;
});
afterAll(() => gw.stop());

describe("gateway users", () => {
  test("add --password-stdin: the user signs in with that password", async () => {
    const added = run(["users", "add", "--id", "ann", "--email", "ann@example.com", "--password-stdin"], "ann's first password\n");
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toEqual({ id: "ann", email: "ann@example.com", name: null, role: "member" });
    expect((await signIn(gw.url, "ann@example.com", "ann's first password")).cookie).toStartWith("gw_session=");
    expect(run(["users", "add", "--id", "short", "--email", "s@example.com", "--password-stdin"], "tooshort\n")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("at least 10 characters"),
    });
    expect(run(["users", "add", "--id", "nomail", "--password-stdin"], "long enough password\n").stderr).toContain("--email: required");
  });

  test("passwd: the new password works, the old one and the old sessions do not", async () => {
    const old = await signIn(gw.url, "ann@example.com", "ann's first password");
    const changed = run(["users", "passwd", "ann"], "ann's second password");
    expect(changed.code).toBe(0);
    expect(await sessionOf(old.cookie)).toBeNull();
    await expect(signIn(gw.url, "ann@example.com", "ann's first password")).rejects.toThrow("sign-in failed: 401");
    expect((await signIn(gw.url, "ann@example.com", "ann's second password")).cookie).toStartWith("gw_session=");
    expect(run(["users", "passwd", "nobody"], "whatever password").code).toBe(2);
  });

  test("passwd --email gives the first-start owner an email to sign in with", async () => {
    expect(run(["users", "passwd", "owner", "--email", "owner@example.com"], "the owner's password\n").code).toBe(0);
    const { cookie } = await signIn(gw.url, "owner@example.com", "the owner's password");
    expect((await sessionOf(cookie))?.role).toBe("owner");
  });

  test("invite: a one-time link where a user without a password chooses one and is signed in", async () => {
    expect(run(["users", "add", "--id", "ben", "--email", "ben@example.com"]).code).toBe(0);
    const invited = run(["users", "invite", "ben"]);
    expect(invited.code).toBe(0);
    const link = invited.stdout.trim();
    expect(link).toMatch(new RegExp(`^${gw.url}/invite\\?token=[A-Za-z0-9_-]{43}$`));
    expect(invited.stderr).toContain("valid once, for 24 hours");

    const page = await fetch(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("You were invited to sign in as <strong>ben@example.com</strong>.");
    const formCookie = `gw_form=${setCookies(page).get("gw_form")}`;
    const token = new URL(link).searchParams.get("token")!;
    const submit = (fields: Record<string, string>) =>
      fetch(`${gw.url}/invite`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: formCookie },
        body: new URLSearchParams({ csrf_token: hiddenField(html, "csrf_token")!, token, ...fields }),
      });
    expect((await submit({ password: "ben's password!", confirm: "something else" })).status).toBe(400);
    expect((await submit({ password: "short", confirm: "short" })).status).toBe(400);
    const done = await submit({ password: "ben's password!", confirm: "ben's password!" });
    expect(done.status).toBe(303);
    expect((await sessionOf(`gw_session=${setCookies(done).get("gw_session")}`))?.userId).toBe("ben");
    // used up
    expect((await fetch(link)).status).toBe(404);
    expect((await submit({ password: "another password", confirm: "another password" })).status).toBe(404);
    expect((await signIn(gw.url, "ben@example.com", "ben's password!")).cookie).toStartWith("gw_session=");
    // a user who has a password gets no invite
    expect(run(["users", "invite", "ben"])).toMatchObject({ code: 2, stderr: expect.stringContaining("already has a password") });
  });

  test("remove: the user's keys stop working, their sessions end; the owner stays", async () => {
    expect(run(["users", "add", "--id", "cid", "--email", "cid@example.com", "--password-stdin"], "cid's password 123").code).toBe(0);
    const key = await keyFor("cid");
    const { cookie } = await signIn(gw.url, "cid@example.com", "cid's password 123");
    expect((await api("/api/v1/key", { key })).status).toBe(200);
    const removed = run(["users", "remove", "cid"]);
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({ id: "cid", deleted: true, revoked_keys: 1 });
    // a CLI without Redis reaches this server's key cache through its 1 s lifetime
    const start = performance.now();
    let status = 200;
    while (status === 200 && performance.now() - start < 1_500) status = (await api("/api/v1/key", { key })).status;
    expect(status).toBe(401);
    expect(await sessionOf(cookie)).toBeNull();
    expect(run(["users", "remove", "owner"])).toMatchObject({ code: 2, stderr: expect.stringContaining("owner cannot be removed") });
    expect(run(["users", "remove", "cid"]).code).toBe(2);
  });
});

describe("the organization API", () => {
  test("a user's keys are listed and revoked with a management key; an inference key gets 403", async () => {
    run(["users", "add", "--id", "dee", "--email", "dee@example.com"]);
    const keys = [await keyFor("dee"), await keyFor("dee")];
    const listed = (await (await api("/api/v1/organization/members/dee/keys")).json()) as any;
    expect(listed.data.map((k: any) => [k.name, k.creator_user_id])).toEqual([
      ["key of dee", "dee"],
      ["key of dee", "dee"],
    ]);
    expect((await api("/api/v1/organization/members/dee/keys", { key: keys[0] })).status).toBe(403);
    expect((await api("/api/v1/organization/members/dee/keys", { method: "DELETE", key: keys[0] })).status).toBe(403);
    expect((await api("/api/v1/organization/members/nobody/keys")).status).toBe(404);
    const revoked = await api("/api/v1/organization/members/dee/keys", { method: "DELETE" });
    expect(await revoked.json()).toEqual({ revoked_count: 2 });
    for (const key of keys) expect((await api("/api/v1/key", { key })).status).toBe(401);
  });

  test("DELETE /organization/members/{id}: keys refused at once, sessions ended; 404 unknown, 409 owner, 403 inference key", async () => {
    run(["users", "add", "--id", "eli", "--email", "eli@example.com", "--password-stdin"], "eli's password 123");
    const key = await keyFor("eli");
    const { cookie } = await signIn(gw.url, "eli@example.com", "eli's password 123");
    // warm this instance's key cache: the removal must clear it, not wait for it to expire
    expect((await api("/api/v1/key", { key })).status).toBe(200);
    expect((await api("/api/v1/organization/members/eli", { method: "DELETE", key })).status).toBe(403);
    const removed = await api("/api/v1/organization/members/eli", { method: "DELETE" });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ deleted: true, revoked_keys: 1 });
    expect((await api("/api/v1/key", { key })).status).toBe(401);
    expect(await sessionOf(cookie)).toBeNull();
    const members = (await (await api("/api/v1/organization/members")).json()) as any;
    expect(members.data.map((u: any) => u.id)).not.toContain("eli");
    expect((await api("/api/v1/organization/members/eli", { method: "DELETE" })).status).toBe(404);
    const owner = await api("/api/v1/organization/members/owner", { method: "DELETE" });
    expect([owner.status, ((await owner.json()) as any).error.message]).toEqual([409, "The organization's owner cannot be removed"]);
  });

  test("removal from a workspace keeps its rule: 409 while the user has active keys there, exchanged ones included", async () => {
    run(["users", "add", "--id", "fay", "--email", "fay@example.com"]);
    const json = (body: unknown) => ({ headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const ws = ((await (await api("/api/v1/workspaces", { method: "POST", ...json({ name: "Team", slug: "team" }) })).json()) as any).data;
    expect((await api(`/api/v1/workspaces/${ws.id}/members/add`, { method: "POST", ...json({ user_ids: ["fay"] }) })).status).toBe(200);
    const codeRes = await api("/api/v1/auth/keys/code", {
      method: "POST",
      ...json({ callback_url: "https://app.example/cb", user_id: "fay", workspace_id: ws.id }),
    });
    const code = ((await codeRes.json()) as any).data.id;
    const exchanged = (await (await fetch(`${gw.url}/api/v1/auth/keys`, { method: "POST", ...json({ code }) })).json()) as any;
    expect(((await (await api("/api/v1/key", { key: exchanged.key })).json()) as any).data.workspace_id).toBe(ws.id);
    const refused = await api(`/api/v1/workspaces/${ws.id}/members/remove`, { method: "POST", ...json({ user_ids: ["fay"] }) });
    expect(refused.status).toBe(409);
    // a code for a workspace the user is not in is refused
    const outsider = await api("/api/v1/auth/keys/code", {
      method: "POST",
      ...json({ callback_url: "https://app.example/cb", user_id: "ann", workspace_id: ws.id }),
    });
    expect([outsider.status, ((await outsider.json()) as any).error.metadata]).toEqual([403, { field: "workspace_id" }]);
  });
});
