import { randomToken, stringsEqual } from "../crypto/secret-token";

/**
 * CSRF tokens. A signed-in session's token is derived from its cookie value (SHA-256 under a
 * label), so it needs no storage, differs per session, and reveals nothing of the cookie. Before
 * sign-in there is no session: the sign-in and invite forms use a double-submit token instead, a
 * random value in a SameSite=Strict cookie that the form must repeat.
 */
export function csrfTokenOf(sessionCookieValue: string): string {
  return new Bun.CryptoHasher("sha256").update(`csrf\u0000${sessionCookieValue}`).digest("base64url");
}

/**
 * The token comes from the form field `csrf_token` or the `x-csrf-token` header. Constant-time.
 * `session` is a signed-in session (session.ts), which itself derives its token here.
 */
export function csrfTokenValid(session: { csrfToken: string }, token: string | null | undefined): boolean {
  return typeof token === "string" && stringsEqual(token, session.csrfToken);
}

/** The cookie of the double-submit token of forms shown before sign-in. */
export const FORM_TOKEN_COOKIE = "gw_form";

export const newFormToken = (): string => randomToken();

/** The form repeated the cookie's token. */
export function formTokenValid(cookieToken: string | undefined, formToken: string | null | undefined): boolean {
  return typeof cookieToken === "string" && typeof formToken === "string" && stringsEqual(cookieToken, formToken);
}
