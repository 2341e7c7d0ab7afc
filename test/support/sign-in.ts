/**
 * People who sign in, for tests.
 *
 * - `createUserWithPassword(ctx, user)`: adds an organization user and sets their password,
 *   through the services the CLI uses (`createUser` of src/modules/organization/service.ts, then
 *   `setPassword` of src/auth-web/accounts.ts). Pass the running gateway's context (`gw.ctx` of
 *   startTestGateway). The password must have at least 10 characters.
 * - `signIn(baseUrl, email, password)`: signs in as a browser would (GET /login for the form and
 *   its token, POST /login), and returns the session cookie as a `cookie` header value
 *   (`gw_session=...`) and the session's CSRF token (read from the signed-in page's form).
 */
import type { AppContext } from "../../src/app-context";
import { systemOrigin } from "../../src/audit/origin";
import { setPassword } from "../../src/auth-web/accounts";
import { createUser } from "../../src/modules/organization/service";
import type { UserRecord } from "../../src/store/store";

/** who the audit log says made what a test sets up through the services */
export const TEST_ORIGIN = systemOrigin("test setup");

export type NewTestUser = { id: string; email: string; password: string; role?: "admin" | "member"; name?: string };

export async function createUserWithPassword(ctx: Pick<AppContext, "store" | "clock">, user: NewTestUser): Promise<UserRecord> {
  await createUser(ctx, TEST_ORIGIN, { id: user.id, email: user.email, name: user.name ?? null, role: user.role ?? "member" });
  return setPassword(ctx, TEST_ORIGIN, user.id, user.password);
}

/** The `name=value` pairs of a response's Set-Cookie headers, by name. */
export function setCookies(res: Response): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of res.headers.getSetCookie()) {
    const pair = line.split(";")[0]!;
    const eq = pair.indexOf("=");
    out.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return out;
}

/** The value of a hidden form field in an HTML page (our pages write `name="..." value="..."`). */
export function hiddenField(page: string, name: string): string | undefined {
  const match = page.match(new RegExp(`name="${name}" value="([^"]*)"`));
  return match?.[1]?.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">");
}

/** The sign-in form's token and the cookie that must come back with it. */
export async function loginForm(baseUrl: string): Promise<{ formCookie: string; csrfToken: string }> {
  const res = await fetch(`${baseUrl}/login`);
  const page = await res.text();
  const token = setCookies(res).get("gw_form");
  const csrfToken = hiddenField(page, "csrf_token");
  if (res.status !== 200 || !token || !csrfToken) throw new Error(`GET /login gave no form: ${res.status}`);
  return { formCookie: `gw_form=${token}`, csrfToken };
}

export async function signIn(baseUrl: string, email: string, password: string): Promise<{ cookie: string; csrfToken: string }> {
  const form = await loginForm(baseUrl);
  const res = await fetch(`${baseUrl}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: form.formCookie },
    body: new URLSearchParams({ csrf_token: form.csrfToken, email, password }),
  });
  const session = setCookies(res).get("gw_session");
  if (res.status !== 303 || !session) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const cookie = `gw_session=${session}`;
  const page = await (await fetch(`${baseUrl}/login`, { headers: { cookie } })).text();
  const csrfToken = hiddenField(page, "csrf_token");
  if (!csrfToken) throw new Error("the signed-in page has no CSRF token");
  return { cookie, csrfToken };
}
