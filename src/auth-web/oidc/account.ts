import type { AppContext } from "../../app-context";
import type { ChangeOrigin } from "../../audit/origin";
import type { OidcConfig, SignInRole } from "../../config-identity";
import { recordUserChange } from "../../modules/organization/service";
import type { UserRecord } from "../../store/store";
import type { RequestSource } from "../session-events";

/** The ID token's claims the gateway reads (OpenID Connect Core 1.0, section 5.1). */
export type IdClaims = { sub: string; email?: unknown; email_verified?: unknown; name?: unknown; [claim: string]: unknown };

export type AccountOutcome = { ok: true; user: UserRecord } | { ok: false; status: 403; reason: string; userId: string | null };

const emailOf = (claims: IdClaims): string | null => (typeof claims.email === "string" && claims.email.includes("@") ? claims.email.trim() : null);

/** The role `role_mapping` gives the claim's values: the first entry of the mapping that one of them matches; undefined when none does. */
export function mappedRole(oidc: OidcConfig, claims: IdClaims): SignInRole | undefined {
  if (!oidc.roleClaim) return undefined;
  const raw = claims[oidc.roleClaim];
  const values = new Set((Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === "string"));
  return oidc.roleMapping.find(([value]) => values.has(value))?.[1];
}

/** Why an email may not sign in; null when it may. */
function domainRefusal(oidc: OidcConfig, email: string | null): string | null {
  if (oidc.allowedEmailDomains === null) return null;
  if (!email) return "the provider sent no email";
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  return oidc.allowedEmailDomains.includes(domain) ? null : `the email domain ${domain} is not allowed`;
}

/**
 * The gateway user a verified ID token signs in as: the one linked to the issuer's subject, else
 * the user with the token's email when the provider says it verified it (then linked), else a new
 * user with the mapped role or `default_role`. With a `role_claim`, the mapped role (or the
 * default) is applied at every sign-in; the owner's role never changes. Every change is an
 * event of the person signing in, in the transaction that makes it.
 */
export function oidcAccount(ctx: Pick<AppContext, "store" | "clock">, oidc: OidcConfig, claims: IdClaims, source: RequestSource): Promise<AccountOutcome> {
  const email = emailOf(claims);
  const refusal = domainRefusal(oidc, email);
  if (refusal) return Promise.resolve({ ok: false, status: 403, reason: refusal, userId: null });
  const now = ctx.clock();
  const mapped = mappedRole(oidc, claims);
  return ctx.store.transaction(async (tx): Promise<AccountOutcome> => {
    const linkedId = await tx.identities.find(oidc.issuer, claims.sub);
    let user = linkedId ? await tx.users.get(linkedId) : undefined;
    if (!user && email && claims.email_verified === true) user = (await tx.users.findByEmail(email))[0];
    const as = (u: UserRecord): ChangeOrigin => ({ actor: { type: "user", id: u.id, label: u.email }, ...source });
    if (!user) {
      const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim().slice(0, 200) : null;
      user = await tx.users.create({ id: crypto.randomUUID(), email, name, role: mapped ?? oidc.defaultRole, createdAt: now });
      await recordUserChange(tx, now, as(user), null, user);
    }
    if (user.disabled) return { ok: false, status: 403, reason: "the account is deactivated", userId: user.id };
    if (!linkedId) await tx.identities.link({ issuer: oidc.issuer, subject: claims.sub, userId: user.id, createdAt: now });
    const role = oidc.roleClaim ? (mapped ?? oidc.defaultRole) : undefined;
    if (role && user.role !== "owner" && user.role !== role) {
      const updated = (await tx.users.update(user.id, { role }))!;
      await recordUserChange(tx, now, as(user), user, updated);
      user = updated;
    }
    return { ok: true, user };
  });
}
