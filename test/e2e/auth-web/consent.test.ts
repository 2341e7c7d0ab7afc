// The consent page (GET/POST /auth) driven with plain fetch, as a browser would: sign-in first,
// Authorize and Deny, and every refusal (bad callback, missing CSRF token, another person's
// session) with its status and no key made.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { s256Challenge } from "../../../src/modules/auth/pkce";
import { keyWorkspacesOf } from "../../../src/modules/auth/service";
import { startTestGateway, type TestGateway } from "../../support/gateway";
import { createUserWithPassword, hiddenField, signIn } from "../../support/sign-in";

// argon2id checks take a few hundred ms each on a loaded machine; bun's default per-test timeout is 5 s
setDefaultTimeout(30_000);

const VERIFIER = "consent-test-verifier-0123456789-abcdefghijklmnop";
const CALLBACK = "http://localhost:45678/cb?state=xyz";
const PASSWORD = "a long enough password";

let gw: TestGateway;
let ada: { cookie: string; csrfToken: string };
let bob: { cookie: string; csrfToken: string };

beforeAll(async () => {
  gw = await startTestGateway();
  await createUserWithPassword(gw.ctx, { id: "ada", email: "ada@example.com", password: PASSWORD });
  await createUserWithPassword(gw.ctx, { id: "bob", email: "bob@example.com", password: PASSWORD });
  ada = await signIn(gw.url, "ada@example.com", PASSWORD);
  bob = await signIn(gw.url, "bob@example.com", PASSWORD);
});
afterAll(() => gw.close());

const authQuery = (extra: Record<string, string> = {}) =>
  new URLSearchParams({ callback_url: CALLBACK, code_challenge: s256Challenge(VERIFIER), code_challenge_method: "S256", limit: "5", ...extra });

const consentForm = (session: { csrfToken: string }, decision: string, extra: Record<string, string> = {}) =>
  new URLSearchParams({
    csrf_token: session.csrfToken,
    callback_url: CALLBACK,
    code_challenge: s256Challenge(VERIFIER),
    code_challenge_method: "S256",
    limit: "5",
    decision,
    ...extra,
  });

const postConsent = (cookie: string, form: URLSearchParams) => fetch(`${gw.url}/auth`, { method: "POST", redirect: "manual", headers: { cookie }, body: form });

async function keysOf(user: string): Promise<number> {
  return (((await (await gw.api(`/api/v1/organization/members/${user}/keys`)).json()) as any).data as unknown[]).length;
}

describe("GET /auth", () => {
  test("signed out: to the sign-in page, which comes back here", async () => {
    const res = await fetch(`${gw.url}/auth?${authQuery()}`, { redirect: "manual" });
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toStartWith("/login?next=");
    expect(decodeURIComponent(location.slice("/login?next=".length))).toBe(`/auth?${authQuery()}`);
  });

  test("signed in: the app's origin, the limit and the workspace, with Authorize and Deny; the CSP lets the form go to the app", async () => {
    const res = await fetch(`${gw.url}/auth?${authQuery()}`, { headers: { cookie: ada.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self' http://localhost:45678; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    const page = await res.text();
    expect(page).toContain('<dt>App</dt><dd class="origin">http://localhost:45678</dd>');
    expect(page).toContain("<dt>Spending limit</dt><dd>$5.00</dd>");
    expect(page).toContain("<dt>Workspace</dt><dd>Default</dd>");
    expect(page).toContain('<button type="submit" name="decision" value="authorize" class="primary">Authorize</button>');
    expect(page).toContain('<button type="submit" name="decision" value="deny">Deny</button>');
    expect(hiddenField(page, "csrf_token")).toBe(ada.csrfToken);
    expect(page).not.toContain("<script");
    expect(page).not.toContain("style=");
  });

  test("a callback that is not https or this machine: an error page that redirects nowhere, signed in or not", async () => {
    for (const callback of [
      "http://app.example/cb",
      "javascript:alert(1)",
      "http://localhost.evil.example/cb",
      "https://user:pw@app.example/cb",
      "not a url",
    ]) {
      for (const cookie of [ada.cookie, ""]) {
        const res = await fetch(`${gw.url}/auth?${authQuery({ callback_url: callback })}`, { redirect: "manual", headers: { cookie } });
        expect(res.status).toBe(400);
        expect(res.headers.get("location")).toBeNull();
        expect(await res.text()).toContain("This authorization cannot go on");
      }
    }
  });

  test("an unusable challenge or method: an error page", async () => {
    const extras: Record<string, string>[] = [{ code_challenge_method: "S512" }, { code_challenge: "short" }, { limit: "-1" }];
    for (const extra of extras) {
      const res = await fetch(`${gw.url}/auth?${authQuery(extra)}`, { redirect: "manual", headers: { cookie: ada.cookie } });
      expect(res.status).toBe(400);
    }
  });
});

describe("POST /auth", () => {
  test("Authorize: back to the callback (its query kept) with a code the app exchanges for a key of this user", async () => {
    const before = await keysOf("ada");
    const res = await postConsent(ada.cookie, consentForm(ada, "authorize"));
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!);
    expect(location.origin + location.pathname).toBe("http://localhost:45678/cb");
    expect(location.searchParams.get("state")).toBe("xyz");
    const code = location.searchParams.get("code")!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const exchange = await gw.api("/api/v1/auth/keys", { method: "POST", key: null, json: { code, code_verifier: VERIFIER, code_challenge_method: "S256" } });
    expect(exchange.status).toBe(200);
    const { key, user_id } = (await exchange.json()) as any;
    expect(user_id).toBe("ada");
    const meta = ((await (await gw.api("/api/v1/key", { key })).json()) as any).data;
    expect([meta.limit, meta.creator_user_id, meta.is_management_key]).toEqual([5, "ada", false]);
    expect(await keysOf("ada")).toBe(before + 1);
  });

  test("Deny: back to the callback with error=access_denied, and no code", async () => {
    const res = await postConsent(ada.cookie, consentForm(ada, "deny"));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("http://localhost:45678/cb?state=xyz&error=access_denied");
  });

  test("refused with no key: missing CSRF token (403), another person's session (403), no session, a bad callback (400)", async () => {
    const before = [await keysOf("ada"), await keysOf("bob")];
    const missing = consentForm(ada, "authorize");
    missing.delete("csrf_token");
    const cases: Array<[string, URLSearchParams, number]> = [
      [ada.cookie, missing, 403],
      [bob.cookie, consentForm(ada, "authorize"), 403],
      [ada.cookie, consentForm(bob, "authorize"), 403],
      [ada.cookie, consentForm(ada, "authorize", { callback_url: "http://app.example/cb" }), 400],
    ];
    for (const [cookie, form, status] of cases) {
      const res = await postConsent(cookie, form);
      expect(res.status).toBe(status);
      expect(res.headers.get("location")).toBeNull();
    }
    const signedOut = await postConsent("", consentForm(ada, "authorize"));
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get("location")).toStartWith("/login?next=");
    expect([await keysOf("ada"), await keysOf("bob")]).toEqual(before);
  });
});

describe("the workspace the key goes to", () => {
  type Workspace = { id: string; name: string };
  let research: Workspace;
  let zeta: Workspace;
  let cyd: { cookie: string; csrfToken: string };

  const createWorkspace = async (name: string, slug: string): Promise<Workspace> =>
    ((await (await gw.api("/api/v1/workspaces", { method: "POST", json: { name, slug } })).json()) as { data: Workspace }).data;

  /** Authorizes with the form as the page sends it, and returns the workspace of the key the code becomes. */
  async function authorizedInto(extra: Record<string, string>): Promise<string> {
    const res = await postConsent(cyd.cookie, consentForm(cyd, "authorize", extra));
    expect(res.status).toBe(303);
    const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
    const exchange = await gw.api("/api/v1/auth/keys", { method: "POST", key: null, json: { code, code_verifier: VERIFIER, code_challenge_method: "S256" } });
    expect(exchange.status).toBe(200);
    const { key } = (await exchange.json()) as { key: string };
    return ((await (await gw.api("/api/v1/key", { key })).json()) as { data: { workspace_id: string } }).data.workspace_id;
  }

  beforeAll(async () => {
    await createUserWithPassword(gw.ctx, { id: "cyd", email: "cyd@example.com", password: PASSWORD });
    cyd = await signIn(gw.url, "cyd@example.com", PASSWORD);
    // created in this order so that the page's order (default, then by name) is not the store's
    zeta = await createWorkspace("Zeta Lab", "zeta-lab");
    research = await createWorkspace("Research", "research");
    const added = await gw.api(`/api/v1/workspaces/${research.id}/members/add`, { method: "POST", json: { user_ids: ["cyd"] } });
    expect(added.status).toBe(200);
  });

  test("a member of several: a choice of the default workspace (preselected) and theirs, not the others; one of a single workspace sees its name", async () => {
    const page = await (await fetch(`${gw.url}/auth?${authQuery()}`, { headers: { cookie: cyd.cookie } })).text();
    const defaultId = (await gw.ctx.store.workspaces.getDefault())!.id;
    expect(page).toContain(
      `<dt><label for="workspace_id">Workspace</label></dt><dd><select id="workspace_id" name="workspace_id" form="consent"><option value="${defaultId}" selected>Default</option><option value="${research.id}">Research</option></select></dd>`,
    );
    expect(page).toContain('<form method="post" action="/auth" id="consent">');
    expect(page).not.toContain("Zeta Lab");
    const single = await (await fetch(`${gw.url}/auth?${authQuery()}`, { headers: { cookie: bob.cookie } })).text();
    expect(single).toContain("<dt>Workspace</dt><dd>Default</dd>");
    expect(single).not.toContain("<select");
  });

  test("the chosen workspace is the key's; without a choice the default one", async () => {
    const defaultId = (await gw.ctx.store.workspaces.getDefault())!.id;
    expect(await authorizedInto({ workspace_id: research.id })).toBe(research.id);
    expect(await authorizedInto({})).toBe(defaultId);
    expect(await authorizedInto({ workspace_id: "" })).toBe(defaultId);
  });

  test("a workspace the person is not a member of (403) or that does not exist (404): an error page, no redirect and no key", async () => {
    const before = await keysOf("cyd");
    for (const [workspaceId, status, text] of [
      [zeta.id, 403, "is not a member of workspace &#39;zeta-lab&#39;"],
      ["no-such-workspace", 404, "Workspace not found"],
    ] as const) {
      const res = await postConsent(cyd.cookie, consentForm(cyd, "authorize", { workspace_id: workspaceId }));
      expect(res.status).toBe(status);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.text()).toContain(text);
    }
    expect(await keysOf("cyd")).toBe(before);
  });

  test("the owner may choose every workspace", async () => {
    const names = (await keyWorkspacesOf(gw.ctx.store, { id: "owner", role: "owner" })).map((w) => w.name);
    expect(names).toEqual(["Default", "Research", "Zeta Lab"]);
    const admin = (await keyWorkspacesOf(gw.ctx.store, { id: "cyd", role: "admin" })).map((w) => w.name);
    expect(admin).toEqual(["Default", "Research"]);
  });
});
