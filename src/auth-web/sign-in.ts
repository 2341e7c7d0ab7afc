import type { AppContext } from "../app-context";
import type { UserRecord } from "../store/store";
import { passwordMatches } from "./passwords";
import { lockedForMs, recordFailure, recordSuccess, throttleSubjects } from "./throttle";

export type SignInAttempt = { email: string; password: string /** the client's address, for throttling */; address: string };

export type SignInOutcome =
  | { ok: true; user: UserRecord }
  /** 401: wrong email or password (never which); 429: throttled, for `retryAfterSeconds` */
  | { ok: false; status: 401 | 429; message: string; retryAfterSeconds?: number };

const WRONG = "Incorrect email or password.";

const lockedOutcome = (ms: number): SignInOutcome => {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return { ok: false, status: 429, message: `Too many failed sign-ins. Try again in ${Math.ceil(seconds / 60)} minute(s).`, retryAfterSeconds: seconds };
};

/** The user with that email whose password was set; several users may share an email, at most one of them signs in with it. */
async function accountOf(ctx: Pick<AppContext, "store">, email: string): Promise<{ user: UserRecord; hash: string } | undefined> {
  for (const user of await ctx.store.users.findByEmail(email.trim())) {
    // a deactivated user signs in as nobody: the same answer and the same cost as an unknown email
    if (user.disabled) continue;
    const hash = await ctx.store.passwords.get(user.id);
    if (hash) return { user, hash };
  }
  return undefined;
}

/** Checks an email and password, throttled per account and address (throttle.ts). */
export async function signInWithPassword(ctx: Pick<AppContext, "store" | "shared" | "clock">, attempt: SignInAttempt): Promise<SignInOutcome> {
  const subjects = throttleSubjects(attempt.email, attempt.address);
  const locked = await lockedForMs(ctx, subjects);
  if (locked > 0) return lockedOutcome(locked);
  const account = attempt.email.trim() === "" ? undefined : await accountOf(ctx, attempt.email);
  if (account && (await passwordMatches(attempt.password, account.hash))) {
    await recordSuccess(ctx, subjects);
    return { ok: true, user: account.user };
  }
  if (!account) await passwordMatches(attempt.password, undefined);
  const failure = await recordFailure(ctx, subjects);
  if (failure.delayMs > 0) await Bun.sleep(failure.delayMs);
  return failure.lockedForMs > 0 ? lockedOutcome(failure.lockedForMs) : { ok: false, status: 401, message: WRONG };
}
