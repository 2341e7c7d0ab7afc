import type { ChangeOrigin } from "../audit/origin";
import { type AuditTables, recordChange, recordEvent } from "../audit/record";
import type { Store, UserRecord } from "../store/store";

/** How a person signed in: a password, single sign-on, or a password just chosen through an invite link. */
export type SignInMethod = "password" | "oidc" | "invite";

/** Where a browser request came from, as the audit log records it. */
export type RequestSource = Pick<ChangeOrigin, "ip" | "userAgent">;

const asUser = (user: Pick<UserRecord, "id" | "email">, source: RequestSource): ChangeOrigin => ({
  actor: { type: "user", id: user.id, label: user.email },
  ...source,
});

/** session.sign_in, in the transaction that stores the session. */
export function recordSignIn(tx: AuditTables, now: number, user: UserRecord, source: RequestSource, method: SignInMethod) {
  return recordChange(tx, now, asUser(user, source), {
    action: "session.sign_in",
    target: { type: "user", id: user.id },
    changes: { method: { from: null, to: method } },
  });
}

/** session.sign_out, in the transaction that ends the session. */
export function recordSignOut(tx: AuditTables, now: number, user: Pick<UserRecord, "id" | "email">, source: RequestSource) {
  return recordChange(tx, now, asUser(user, source), { action: "session.sign_out", target: { type: "user", id: user.id } });
}

/**
 * session.sign_in_failed: the email tried (never a password) in the actor's label, and why,
 * in words that say no more than the sign-in page does.
 */
export function recordSignInFailure(
  store: Pick<Store, "transaction">,
  now: number,
  attempt: { email: string | null; userId?: string | null; method: SignInMethod; reason: string },
  source: RequestSource,
) {
  return recordEvent(
    store,
    now,
    { actor: { type: "user", id: attempt.userId ?? null, label: attempt.email }, ...source },
    {
      action: "session.sign_in_failed",
      target: { type: "user", id: attempt.userId ?? null },
      changes: { method: { from: null, to: attempt.method }, reason: { from: null, to: attempt.reason } },
    },
  );
}
