// Single sign-on against a real OpenID Connect provider on loopback (test/support/oidc-provider.ts):
// the redirect's parameters, the whole sign-in driven with fetch (the provider's 302s followed by
// hand, cookies carried as a browser does), the account found by subject or verified email or
// created, the role mapping at every sign-in, and each refusal of the callback: an error page,
// no session, a session.sign_in_failed event.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestGateway, type TestGateway } from "../../support/gateway";
import { type OidcTestProvider, startOidcProvider } from "../../support/oidc-provider";
import { setCookies } from "../../support/sign-in";

let idp: OidcTestProvider;
let gw: TestGateway;

const oidcYaml = (idp: OidcTestProvider, extra = "") => `
auth:
  oidc:
    issuer: "${idp.url}"
    client_id: ${idp.clientId}
    allowed_email_domains: [example.com]
    role_claim: groups
    role_mapping: { gw-admins: admin, gw-readers: member }
    button_label: "Sign in with Example SSO"
${extra}`;

type Flow = { start: Response; authorize: string; callback: Response; session: string | undefined };

/** A browser's sign-in: GET /login/oidc, the provider's /authorize, then the callback with the pending cookie. `edit` changes the callback URL first. */
async function signInWithSso(gateway: TestGateway, next = "/console", edit: (url: URL) => void = () => {}): Promise<Flow> {
  const start = await fetch(`${gateway.url}/login/oidc?next=${encodeURIComponent(next)}`, { redirect: "manual" });
  const authorize = start.headers.get("location")!;
  const pending = setCookies(start).get("gw_oidc");
  const atProvider = await fetch(authorize, { redirect: "manual" });
  const back = new URL(atProvider.headers.get("location")!);
  edit(back);
  const callback = await fetch(back, { redirect: "manual", headers: { cookie: `gw_oidc=${pending}`, "user-agent": "sso-test" } });
  return { start, authorize, callback, session: setCookies(callback).get("gw_session") || undefined };
}

async function me(gateway: TestGateway, session: string) {
  const res = await fetch(`${gateway.url}/console/api/me`, { headers: { cookie: `gw_session=${session}` } });
  return { status: res.status, body: (await res.json()) as any };
}

async function lastEvent(gateway: TestGateway, action: string) {
  const res = await gateway.api(`/api/v1/audit-logs?action=${action}&limit=1`);
  return ((await res.json()) as any).data[0];
}

beforeAll(async () => {
  idp = await startOidcProvider();
  gw = await startTestGateway({ yaml: oidcYaml(idp), env: { GATEWAY_OIDC_CLIENT_SECRET: idp.clientSecret } });
});
afterAll(async () => {
  await gw?.close();
  await idp?.stop();
});

describe("single sign-on", () => {
  test("/login shows the button, which starts the flow with this gateway's callback and next", async () => {
    const page = await (await fetch(`${gw.url}/login?next=/console`)).text();
    expect(page).toContain('<a class="button primary" id="sso" href="/login/oidc?next=%2Fconsole">Sign in with Example SSO</a>');
    expect(page).toContain('name="password"');
  });

  test("GET /login/oidc: 302 to the authorization endpoint with code, state, nonce, PKCE S256 and the callback URL", async () => {
    const start = await fetch(`${gw.url}/login/oidc?next=/console`, { redirect: "manual" });
    expect(start.status).toBe(302);
    const url = new URL(start.headers.get("location")!);
    expect(url.origin + url.pathname).toBe(`${idp.url}/authorize`);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toEqual({
      client_id: "gateway",
      response_type: "code",
      redirect_uri: `${gw.url}/login/oidc/callback`,
      scope: "openid email profile",
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: "S256",
    });
    const cookie = start.headers.getSetCookie().find((c) => c.startsWith("gw_oidc="))!;
    expect(cookie).toContain("Path=/login/oidc");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
  });

  test("a full sign-in: the code exchanged with client_secret_basic, a new user with the mapped role, a session, back to next", async () => {
    idp.login = { sub: "sub-ada", email: "ada@example.com", email_verified: true, name: "Ada Lovelace", groups: ["staff", "gw-admins"] };
    const flow = await signInWithSso(gw, "/console?tab=keys");
    expect(flow.callback.status).toBe(302);
    expect(flow.callback.headers.get("location")).toBe("/console?tab=keys");
    expect(flow.session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const token = idp.tokenRequests.at(-1)!;
    // RFC 6749, section 2.3.1: the id and secret are form-urlencoded before they are joined and base64-encoded
    const basic = Buffer.from(token.authorization!.replace(/^Basic /, ""), "base64")
      .toString()
      .split(":")
      .map(decodeURIComponent);
    expect(basic).toEqual(["gateway", idp.clientSecret]);
    expect(token.body.client_secret).toBeUndefined();
    expect(token.body.redirect_uri).toBe(`${gw.url}/login/oidc/callback`);
    const who = await me(gw, flow.session!);
    expect([who.status, who.body.data.email, who.body.data.role]).toEqual([200, "ada@example.com", "admin"]);
    const signIn = await lastEvent(gw, "session.sign_in");
    expect([signIn.actor, signIn.changes, signIn.user_agent]).toEqual([
      { type: "user", id: who.body.data.user_id, label: "ada@example.com" },
      { method: { from: null, to: "oidc" } },
      "sso-test",
    ]);
    const created = await lastEvent(gw, "user.create");
    expect(created.changes).toEqual({
      active: { from: null, to: true },
      email: { from: null, to: "ada@example.com" },
      name: { from: null, to: "Ada Lovelace" },
      role: { from: null, to: "admin" },
    });
  });

  test("the same subject is the same user; the role mapping applies again at every sign-in", async () => {
    idp.login = { sub: "sub-ada", email: "ada@example.com", email_verified: true, groups: ["staff"] };
    const again = await signInWithSso(gw);
    const who = await me(gw, again.session!);
    expect([who.body.data.email, who.body.data.role]).toEqual(["ada@example.com", "member"]);
    const users = ((await (await gw.api("/api/v1/organization/members?limit=100")).json()) as any).data;
    expect(users.filter((u: any) => u.email === "ada@example.com")).toHaveLength(1);
    const update = await lastEvent(gw, "user.update");
    expect(update.changes).toEqual({ role: { from: "admin", to: "member" } });
  });

  test("an existing user is found by a verified email and linked; an unverified email makes a new user", async () => {
    expect((await gw.api("/api/v1/organization/members", { method: "POST", json: { id: "dana", email: "Dana@example.com", role: "admin" } })).status).toBe(201);
    idp.login = { sub: "sub-dana", email: "dana@example.com", email_verified: true, groups: ["gw-admins"] };
    const linked = await signInWithSso(gw);
    expect((await me(gw, linked.session!)).body.data.user_id).toBe("dana");
    idp.login = { sub: "sub-dana", email: "someone-else@example.com", email_verified: true, groups: ["gw-admins"] };
    expect((await me(gw, (await signInWithSso(gw)).session!)).body.data.user_id).toBe("dana");
    idp.login = { sub: "sub-mallory", email: "dana@example.com", email_verified: false };
    const unverified = await me(gw, (await signInWithSso(gw)).session!);
    expect(unverified.body.data.user_id).not.toBe("dana");
    expect(unverified.body.data.role).toBe("member");
  });

  describe("refusals: an error page, no session, an event", () => {
    const refused = async (flow: Flow, status: number, text: string, reason: RegExp) => {
      expect(flow.callback.status).toBe(status);
      expect(flow.session).toBeUndefined();
      expect(await flow.callback.text()).toContain(text);
      const event = await lastEvent(gw, "session.sign_in_failed");
      expect(event.changes.method).toEqual({ from: null, to: "oidc" });
      expect(event.changes.reason.to).toMatch(reason);
    };
    const attempt = async (tamper: OidcTestProvider["tamper"], edit?: (url: URL) => void) => {
      idp.login = { sub: "sub-ada", email: "ada@example.com", email_verified: true };
      idp.tamper = tamper;
      try {
        return await signInWithSso(gw, "/console", edit);
      } finally {
        idp.tamper = {};
      }
    };

    test("a state that is not the one sent", async () => {
      await refused(
        await attempt({}, (url) => url.searchParams.set("state", "forged-state")),
        400,
        "could not be verified",
        /unexpected "state" response parameter value/,
      );
    });
    test("a nonce that is not the one sent", async () => {
      await refused(await attempt({ nonce: "another-nonce" }), 400, "could not be verified", /unexpected ID Token "nonce" claim value/);
    });
    test("an ID token signed by a key not in the provider's JWKS", async () => {
      await refused(await attempt({ rogueKey: true }), 400, "could not be verified", /JWT signature verification failed/);
    });
    test("an ID token for another audience", async () => {
      await refused(await attempt({ audience: "someone-else" }), 400, "could not be verified", /unexpected JWT "aud" \(audience\) claim value/);
    });
    test("an expired ID token", async () => {
      await refused(await attempt({ expired: true }), 400, "could not be verified", /unexpected JWT "exp" \(expiration time\) claim value/);
    });
    test("an ID token of another issuer", async () => {
      await refused(await attempt({ issuer: "https://evil.example" }), 400, "could not be verified", /unexpected JWT "iss" \(issuer\) claim value/);
    });
    test("a callback without the browser's pending sign-in", async () => {
      const start = await fetch(`${gw.url}/login/oidc`, { redirect: "manual" });
      const atProvider = await fetch(start.headers.get("location")!, { redirect: "manual" });
      const callback = await fetch(atProvider.headers.get("location")!, { redirect: "manual" });
      await refused({ start, authorize: "", callback, session: setCookies(callback).get("gw_session") || undefined }, 400, "expired", /no sign-in was started/);
    });
    test("an email outside allowed_email_domains is 403", async () => {
      idp.login = { sub: "sub-eve", email: "eve@other.example", email_verified: true };
      await refused(await signInWithSso(gw), 403, "You may not sign in here", /email domain other\.example is not allowed/);
      const failed = await lastEvent(gw, "session.sign_in_failed");
      expect(failed.actor).toEqual({ type: "user", id: null, label: "eve@other.example" });
    });
  });
});

describe("a provider that takes client_secret_post, and password sign-in turned off", () => {
  let postIdp: OidcTestProvider;
  let gw2: TestGateway;
  beforeAll(async () => {
    postIdp = await startOidcProvider({ authMethods: ["client_secret_post"] });
    gw2 = await startTestGateway({ yaml: `${oidcYaml(postIdp)}    client_secret: "${postIdp.clientSecret}"\n  password: false\n` });
  });
  afterAll(async () => {
    await gw2?.close();
    await postIdp?.stop();
  });

  test("the secret goes in the token request's body, no Authorization header", async () => {
    const flow = await signInWithSso(gw2);
    expect(flow.callback.status).toBe(302);
    const token = postIdp.tokenRequests.at(-1)!;
    expect([token.authorization, token.body.client_id, token.body.client_secret]).toEqual([null, "gateway", postIdp.clientSecret]);
  });

  test("no password form, and POST /login is refused", async () => {
    const page = await (await fetch(`${gw2.url}/login`)).text();
    expect(page).toContain('id="sso"');
    expect(page).not.toContain('name="password"');
    const form = await fetch(`${gw2.url}/login`);
    const token = setCookies(form).get("gw_form")!;
    const post = await fetch(`${gw2.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: `gw_form=${token}` },
      body: new URLSearchParams({ csrf_token: token, email: "owner@example.com", password: "whatever password" }),
    });
    expect(post.status).toBe(403);
  });
});
