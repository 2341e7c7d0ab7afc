import type { SecretBox } from "../../crypto/secret-box";
import { cookieHeader, readCookie } from "../cookies";

/**
 * A sign-in on its way to the provider: what the callback checks the answer against (state,
 * nonce, the PKCE verifier) and where to go after. Kept in the browser, sealed with the master
 * key (AES-256-GCM), so the gateway stores nothing for it and nobody can read or forge it; bound
 * to the browser that started it, since the callback finds it only in that browser's cookie.
 */
export type PendingSignIn = { state: string; nonce: string; verifier: string; next: string; redirectUri: string; expiresAt: number };

export const PENDING_COOKIE = "gw_oidc";
const COOKIE_PATH = "/login/oidc";
/** time enough to sign in at the provider */
export const PENDING_LIFETIME_MS = 10 * 60_000;

export async function pendingCookie(box: SecretBox, pending: PendingSignIn, secure: boolean): Promise<string> {
  const sealed = await box.seal(JSON.stringify(pending));
  // Lax: the provider sends the browser back with a top-level GET, which carries Lax cookies
  return cookieHeader(PENDING_COOKIE, sealed, { secure, sameSite: "Lax", maxAge: PENDING_LIFETIME_MS / 1000, path: COOKIE_PATH });
}

export const clearedPendingCookie = (secure: boolean) => cookieHeader(PENDING_COOKIE, "", { secure, sameSite: "Lax", maxAge: 0, path: COOKIE_PATH });

/** The pending sign-in of this browser, while it lasts; undefined when there is none, it was tampered with, or it expired. */
export async function pendingOf(box: SecretBox, request: Request, now: number): Promise<PendingSignIn | undefined> {
  const sealed = readCookie(request, PENDING_COOKIE);
  if (!sealed || sealed.length > 4096) return undefined;
  try {
    const pending = JSON.parse(await box.open(sealed)) as PendingSignIn;
    return pending.expiresAt > now ? pending : undefined;
  } catch {
    return undefined;
  }
}
