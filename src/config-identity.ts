import { ConfigError } from "./config-error";
import type { GatewayFile } from "./config-schema";

/** Roles a sign-in may give: the owner is made once, at first start, never by an identity provider. */
export type SignInRole = "admin" | "member";

/**
 * Single sign-on through an OpenID Connect provider (auth.oidc). `roleMapping`: claim value → role,
 * in the file's order (the first match wins); `allowedEmailDomains` null: any domain.
 */
export type OidcConfig = {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  scopes: string[];
  allowedEmailDomains: string[] | null;
  roleClaim?: string;
  roleMapping: ReadonlyArray<readonly [string, SignInRole]>;
  defaultRole: SignInRole;
  buttonLabel: string;
};

/** How people sign in: with a password (unless turned off) and, when configured, single sign-on. */
export type AuthConfig = { password: boolean; oidc?: OidcConfig };

export const AUDIT_RETENTION_DAYS = 365;

type Env = Record<string, string | undefined>;

/** An http issuer is refused unless it is this machine (a provider run beside the gateway, or a test's). */
function checkedIssuer(issuer: string): string {
  const url = new URL(issuer);
  const loopback = url.hostname === "localhost" || url.hostname === "[::1]" || /^127\./.test(url.hostname);
  if (url.protocol !== "https:" && !loopback) throw new ConfigError("auth.oidc.issuer", "an https URL (http only for a provider on this machine)", issuer);
  return issuer.replace(/\/+$/, "");
}

function oidcConfig(env: Env, oidc: NonNullable<NonNullable<GatewayFile["auth"]>["oidc"]>): OidcConfig {
  return {
    issuer: checkedIssuer(oidc.issuer),
    clientId: oidc.client_id,
    clientSecret: env.GATEWAY_OIDC_CLIENT_SECRET || oidc.client_secret || undefined,
    scopes: oidc.scopes ?? ["openid", "email", "profile"],
    allowedEmailDomains: oidc.allowed_email_domains?.map((d) => d.toLowerCase().replace(/^@/, "")) ?? null,
    roleClaim: oidc.role_claim,
    roleMapping: Object.entries(oidc.role_mapping ?? {}),
    defaultRole: oidc.default_role ?? "member",
    buttonLabel: oidc.button_label ?? "Sign in with SSO",
  };
}

/** The `auth` and `audit` sections of gateway.yaml, with GATEWAY_OIDC_CLIENT_SECRET. */
export function identityConfig(env: Env, file: Pick<GatewayFile, "auth" | "audit">): { auth: AuthConfig; audit: { retentionMs: number } } {
  const oidc = file.auth?.oidc ? oidcConfig(env, file.auth.oidc) : undefined;
  const password = file.auth?.password ?? true;
  if (!password && !oidc) throw new ConfigError("auth.password", "true unless auth.oidc is set (nobody could sign in)", false);
  return {
    auth: { password, ...(oidc && { oidc }) },
    audit: { retentionMs: Math.round((file.audit?.retention_days ?? AUDIT_RETENTION_DAYS) * 86_400_000) },
  };
}
