import type { AppContext } from "../app-context";
import { randomToken, tokenDigest } from "../crypto/secret-token";
import type { UserRecord } from "../store/store";
import { cookieHeader, cookiesSecure, readCookie } from "./cookies";
import { csrfTokenOf } from "./csrf";
import { type RequestSource, recordSignIn, recordSignOut, type SignInMethod } from "./session-events";

/**
 * A person signed in through the browser. `sessionId` is the stored id (the SHA-256 of the cookie
 * value, never the cookie itself); `csrfToken` goes into every form and state-changing request of
 * the session (see csrf.ts).
 */
export type SignedIn = { sessionId: string; userId: string; email: string; role: "owner" | "admin" | "member"; csrfToken: string };

export const SESSION_COOKIE = "gw_session";

/** The idle clock is written at most this often: a page load per second must not be a write per second. */
const TOUCH_EVERY_MS = 60_000;

type SessionContext = Pick<AppContext, "store" | "clock" | "config">;

const idleMs = (ctx: SessionContext) => ctx.config.sessions.idleMinutes * 60_000;
const maxMs = (ctx: SessionContext) => ctx.config.sessions.maxHours * 3_600_000;

function signedIn(sessionId: string, cookieValue: string, user: UserRecord): SignedIn {
  return { sessionId, userId: user.id, email: user.email ?? "", role: user.role, csrfToken: csrfTokenOf(cookieValue) };
}

/**
 * The person whose session cookie the request carries, or null: no cookie, an unknown or ended
 * session (idle longer than `sessions.idle_minutes`, or older than `sessions.max_hours`), or a
 * user no longer in the organization. A live session's idle clock starts again.
 */
export async function signedInUser(ctx: SessionContext, request: Request): Promise<SignedIn | null> {
  const cookieValue = readCookie(request, SESSION_COOKIE);
  if (!cookieValue || cookieValue.length > 128) return null;
  const id = tokenDigest(cookieValue);
  const session = await ctx.store.sessions.get(id);
  if (!session) return null;
  const now = ctx.clock();
  if (session.expiresAt <= now || session.lastSeenAt + idleMs(ctx) <= now) {
    await ctx.store.sessions.delete(id);
    return null;
  }
  const user = await ctx.store.users.get(session.userId);
  if (!user || user.disabled) return null;
  if (now - session.lastSeenAt >= TOUCH_EVERY_MS) await ctx.store.sessions.touch(id, now);
  return signedIn(id, cookieValue, user);
}

/**
 * Starts a session for the user, with its session.sign_in event in the same transaction; returns
 * it and the Set-Cookie header that hands it to the browser.
 */
export async function startSession(
  ctx: SessionContext,
  request: Request,
  user: UserRecord,
  signIn: { source: RequestSource; method: SignInMethod },
): Promise<{ session: SignedIn; setCookie: string }> {
  const now = ctx.clock();
  const cookieValue = randomToken();
  const id = tokenDigest(cookieValue);
  await ctx.store.transaction(async (tx) => {
    // ended sessions go whenever a new one starts: no timer needed, and the table stays small
    await tx.sessions.deleteExpired(now, now - idleMs(ctx));
    await tx.sessions.create({ id, userId: user.id, createdAt: now, lastSeenAt: now, expiresAt: now + maxMs(ctx) });
    await recordSignIn(tx, now, user, signIn.source, signIn.method);
  });
  const setCookie = cookieHeader(SESSION_COOKIE, cookieValue, { secure: cookiesSecure(ctx, request), sameSite: "Lax", maxAge: Math.floor(maxMs(ctx) / 1000) });
  return { session: signedIn(id, cookieValue, user), setCookie };
}

/**
 * Ends the session (if any) and returns the Set-Cookie header that removes the cookie. `signOut`:
 * the person asked to, so a session.sign_out event goes with it (not when a new sign-in replaces
 * the browser's old session).
 */
export async function endSession(ctx: SessionContext, request: Request, session: SignedIn | null, signOut?: RequestSource): Promise<string> {
  if (session)
    await ctx.store.transaction(async (tx) => {
      const ended = await tx.sessions.delete(session.sessionId);
      if (ended && signOut) await recordSignOut(tx, ctx.clock(), { id: session.userId, email: session.email || null }, signOut);
    });
  return cookieHeader(SESSION_COOKIE, "", { secure: cookiesSecure(ctx, request), sameSite: "Lax", maxAge: 0 });
}
