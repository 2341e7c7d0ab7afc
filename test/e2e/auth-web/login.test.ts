// Signing in through the browser forms: GET/POST /login, POST /logout, the session cookie and its
// expiry, CSRF tokens, and the `next` redirect. Plain fetch against a listening gateway.

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { signedInUser } from "../../../src/auth-web/session";
import { startTestGateway, type TestGateway } from "../../support/gateway";
import { createUserWithPassword, hiddenField, loginForm, setCookies, signIn } from "../../support/sign-in";

// argon2id checks take a few hundred ms each on a loaded machine; bun's default per-test timeout is 5 s
setDefaultTimeout(30_000);

const PASSWORD = "correct horse battery staple";
let now = Date.parse("2030-01-01T00:00:00Z");
let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway({ clock: () => now });
  await createUserWithPassword(gw.ctx, { id: "ada", email: "Ada@Example.com", password: PASSWORD, role: "admin" });
});
afterAll(() => gw.close());

const postLogin = (fields: Record<string, string>, cookie?: string) =>
  fetch(`${gw.url}/login`, { method: "POST", redirect: "manual", headers: cookie ? { cookie } : {}, body: new URLSearchParams(fields) });

describe("GET /login", () => {
  test("a form with a CSRF token, the token's cookie, and headers that forbid inline code and framing", async () => {
    const res = await fetch(`${gw.url}/login`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const page = await res.text();
    const token = hiddenField(page, "csrf_token");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("gw_form="));
    expect(cookie).toBe(`gw_form=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=43200`);
    // nothing inline: CSP without 'unsafe-inline' must not block anything
    expect(page).not.toContain("<script");
    expect(page).not.toContain("style=");
    expect(page).toContain('<link rel="stylesheet" href="/auth-web/auth.css">');
  });

  test("the stylesheet is a file", async () => {
    const res = await fetch(`${gw.url}/auth-web/auth.css`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await res.text()).toContain(":focus-visible");
  });
});

describe("POST /login", () => {
  test("the right email (any case) and password: 303 to the default page with an HttpOnly, SameSite=Lax session cookie", async () => {
    const form = await loginForm(gw.url);
    const res = await postLogin({ csrf_token: form.csrfToken, email: "ada@example.COM", password: PASSWORD }, form.formCookie);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/console");
    const line = res.headers.getSetCookie().find((c) => c.startsWith("gw_session="))!;
    expect(line).toMatch(/^gw_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=604800$/);
    const page = await (await fetch(`${gw.url}/login`, { headers: { cookie: line.split(";")[0]! } })).text();
    expect(page).toContain("Signed in as <strong>Ada@Example.com</strong>");
  });

  test("a wrong password and an unknown email get the same answer, and no session", async () => {
    const form = await loginForm(gw.url);
    const wrong = await postLogin({ csrf_token: form.csrfToken, email: "ada@example.com", password: "not the password" }, form.formCookie);
    const unknown = await postLogin({ csrf_token: form.csrfToken, email: "nobody@example.com", password: PASSWORD }, form.formCookie);
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(setCookies(res).has("gw_session")).toBe(false);
      const page = await res.text();
      expect(page).toContain('<p class="error" role="alert" id="login-error">Incorrect email or password.</p>');
    }
  });

  test("without the form's CSRF token (or with another one): 403, no session", async () => {
    const form = await loginForm(gw.url);
    const missing = await postLogin({ email: "ada@example.com", password: PASSWORD }, form.formCookie);
    const noCookie = await postLogin({ csrf_token: form.csrfToken, email: "ada@example.com", password: PASSWORD });
    const other = await postLogin({ csrf_token: (await loginForm(gw.url)).csrfToken, email: "ada@example.com", password: PASSWORD }, form.formCookie);
    for (const res of [missing, noCookie, other]) {
      expect(res.status).toBe(403);
      expect(setCookies(res).has("gw_session")).toBe(false);
    }
  });

  test("behind HTTPS (X-Forwarded-Proto) the cookie is Secure", async () => {
    const form = await loginForm(gw.url);
    const res = await fetch(`${gw.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: form.formCookie, "x-forwarded-proto": "https" },
      body: new URLSearchParams({ csrf_token: form.csrfToken, email: "ada@example.com", password: PASSWORD }),
    });
    expect(res.headers.getSetCookie().find((c) => c.startsWith("gw_session="))).toEndWith("; Secure");
  });

  test("next: a path of this site is followed, anything else falls back to the console", async () => {
    const cases: Array<[string, string]> = [
      ["/console/keys?tab=mine#top", "/console/keys?tab=mine#top"],
      ["/auth?callback_url=x", "/auth?callback_url=x"],
      ["//evil.example/x", "/console"],
      ["/\\evil.example", "/console"],
      ["https://evil.example/", "/console"],
      ["javascript:alert(1)", "/console"],
    ];
    for (const [next, location] of cases) {
      const page = await (await fetch(`${gw.url}/login?next=${encodeURIComponent(next)}`)).text();
      const form = await loginForm(gw.url);
      const res = await postLogin(
        { csrf_token: form.csrfToken, email: "ada@example.com", password: PASSWORD, next: hiddenField(page, "next")! },
        form.formCookie,
      );
      expect(res.headers.get("location")).toBe(location);
    }
  });

  test("GET /login?next=... when signed in goes straight there", async () => {
    const { cookie } = await signIn(gw.url, "ada@example.com", PASSWORD);
    const res = await fetch(`${gw.url}/login?next=%2Fconsole`, { redirect: "manual", headers: { cookie } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/console");
  });
});

describe("sessions", () => {
  const request = (cookie: string) => new Request(`${gw.url}/anything`, { headers: { cookie } });

  test("signedInUser: who, with the CSRF token the pages carry", async () => {
    const { cookie, csrfToken } = await signIn(gw.url, "ada@example.com", PASSWORD);
    const session = await signedInUser(gw.ctx, request(cookie));
    expect(session).toEqual({ sessionId: expect.stringMatching(/^[0-9a-f]{64}$/), userId: "ada", email: "Ada@Example.com", role: "admin", csrfToken });
    expect(await signedInUser(gw.ctx, request("gw_session=made-up"))).toBeNull();
    expect(await signedInUser(gw.ctx, new Request(gw.url))).toBeNull();
  });

  test("12 hours idle ends a session; activity keeps it alive, but never past 7 days", async () => {
    const start = now;
    try {
      const idle = await signIn(gw.url, "ada@example.com", PASSWORD);
      const active = await signIn(gw.url, "ada@example.com", PASSWORD);
      now += 12 * 3_600_000 - 1_000;
      expect(await signedInUser(gw.ctx, request(active.cookie))).not.toBeNull();
      now += 1_000;
      expect(await signedInUser(gw.ctx, request(idle.cookie))).toBeNull();
      expect(await signedInUser(gw.ctx, request(active.cookie))).not.toBeNull();
      // a request every 11 hours up to the 7th day
      while (now + 11 * 3_600_000 < start + 7 * 86_400_000) {
        now += 11 * 3_600_000;
        expect(await signedInUser(gw.ctx, request(active.cookie))).not.toBeNull();
      }
      now = start + 7 * 86_400_000;
      expect(await signedInUser(gw.ctx, request(active.cookie))).toBeNull();
    } finally {
      now = start;
    }
  });

  test("POST /logout needs the session's CSRF token, then ends the session and clears the cookie", async () => {
    const { cookie, csrfToken } = await signIn(gw.url, "ada@example.com", PASSWORD);
    const refused = await fetch(`${gw.url}/logout`, { method: "POST", redirect: "manual", headers: { cookie }, body: new URLSearchParams({}) });
    expect(refused.status).toBe(403);
    expect(await signedInUser(gw.ctx, request(cookie))).not.toBeNull();
    const res = await fetch(`${gw.url}/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie },
      body: new URLSearchParams({ csrf_token: csrfToken }),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/login");
    expect(res.headers.getSetCookie()).toContain("gw_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    expect(await signedInUser(gw.ctx, request(cookie))).toBeNull();
  });

  test("the database holds neither the password nor the session cookie, only their hashes", async () => {
    const { cookie } = await signIn(gw.url, "ada@example.com", PASSWORD);
    const db = new Database(join(gw.dir, "gateway.db"), { readonly: true });
    try {
      const hash = db.query<{ hash: string }, []>("select hash from user_passwords where user_id = 'ada'").get()!.hash;
      expect(hash).toStartWith("$argon2id$");
      const dump = JSON.stringify(db.query("select * from user_passwords").all()) + JSON.stringify(db.query("select * from web_sessions").all());
      expect(dump).not.toContain(PASSWORD);
      expect(dump).not.toContain(cookie.slice("gw_session=".length));
    } finally {
      db.close();
    }
  });
});
