import type { AppContext } from "../../app-context";
import { secretBoxOf } from "../../crypto/secret-box";
import { requestSource } from "../../http/change-origin";
import { routeModule } from "../../http/module";
import { cookiesSecure } from "../cookies";
import { safeNextPath } from "../next-path";
import { htmlResponse } from "../page-response";
import { messagePage } from "../pages/layout";
import { endSession, signedInUser, startSession } from "../session";
import { recordSignInFailure } from "../session-events";
import { type IdClaims, oidcAccount } from "./account";
import { openidClient } from "./openid-client";
import { clearedPendingCookie, PENDING_LIFETIME_MS, pendingCookie, pendingOf } from "./pending";
import { type OidcProvider, oidcProviders } from "./provider";

/** 302, as the provider's own redirects: the browser follows with a GET. */
function found(location: string, setCookies: string[]): Response {
  const headers = new Headers({ location, "cache-control": "no-store", "referrer-policy": "no-referrer" });
  for (const cookie of setCookies) headers.append("set-cookie", cookie);
  return new Response(null, { status: 302, headers });
}

/** What openid-client says was wrong: its innermost message names the check (the "state" parameter, the "nonce" or "aud" claim, the signature). */
function verificationFailure(err: unknown): string {
  let message = err instanceof Error ? err.message : String(err);
  for (let e = err, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) message = e.message;
  return message;
}

/** Where the provider sends people back: server.public_url when set (behind a proxy the request's own origin may be internal), else the request's origin. */
function callbackUrl(ctx: AppContext, request: Request): string {
  return `${ctx.config.server.publicUrl ?? new URL(request.url).origin}/login/oidc/callback`;
}

/**
 * Single sign-on through the OpenID Connect provider of `auth.oidc`: GET /login/oidc sends the
 * browser to the provider (authorization code flow with PKCE S256, state and nonce); GET
 * /login/oidc/callback exchanges the code, has openid-client check the ID token (signature by the
 * provider's JWKS, iss, aud, exp, nonce), finds or creates the user (oidc/account.ts) and starts
 * a session exactly as a password sign-in does. Anything refused is an error page and no session.
 */
export function oidcRoutes(ctx: AppContext) {
  const providerOf = oidcProviders();
  const provider = async (): Promise<OidcProvider | undefined> => (ctx.config.auth.oidc ? providerOf(ctx.config.auth.oidc) : undefined);
  const problem = (status: number, message: string, secure: boolean) =>
    htmlResponse(status, messagePage("Single sign-on failed", message, [{ href: "/login", label: "Back to sign-in" }]), {
      setCookies: [clearedPendingCookie(secure)],
    });
  return routeModule("auth-web-oidc")
    .get(
      "/login/oidc",
      async ({ request }) => {
        const secure = cookiesSecure(ctx, request);
        if (!ctx.config.auth.oidc) return problem(404, "Single sign-on is not set up on this gateway.", secure);
        let sso: OidcProvider;
        try {
          sso = (await provider())!;
        } catch (err) {
          ctx.logger.warn("OIDC discovery failed", { issuer: ctx.config.auth.oidc.issuer, error: err instanceof Error ? err.message : String(err) });
          return problem(502, "The identity provider cannot be reached. Try again later.", secure);
        }
        const client = await openidClient();
        const verifier = client.randomPKCECodeVerifier();
        const pending = {
          state: client.randomState(),
          nonce: client.randomNonce(),
          verifier,
          next: safeNextPath(new URL(request.url).searchParams.get("next")),
          redirectUri: callbackUrl(ctx, request),
          expiresAt: ctx.clock() + PENDING_LIFETIME_MS,
        };
        const url = client.buildAuthorizationUrl(sso.config, {
          response_type: "code",
          redirect_uri: pending.redirectUri,
          scope: sso.oidc.scopes.join(" "),
          state: pending.state,
          nonce: pending.nonce,
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: "S256",
        });
        return found(url.href, [await pendingCookie(secretBoxOf(ctx), pending, secure)]);
      },
      { detail: { hide: true } },
    )
    .get(
      "/login/oidc/callback",
      async ({ request, server }) => {
        const secure = cookiesSecure(ctx, request);
        const oidc = ctx.config.auth.oidc;
        if (!oidc) return problem(404, "Single sign-on is not set up on this gateway.", secure);
        const source = requestSource(request, server);
        const refuse = async (status: number, reason: string, shown: string, who: { email?: string | null; userId?: string | null } = {}) => {
          await recordSignInFailure(ctx.store, ctx.clock(), { email: who.email ?? null, userId: who.userId ?? null, method: "oidc", reason }, source);
          return problem(status, shown, secure);
        };
        const query = new URL(request.url).searchParams;
        const pending = await pendingOf(secretBoxOf(ctx), request, ctx.clock());
        if (!pending)
          return refuse(400, "no sign-in was started in this browser, or it expired", "This sign-in expired or was started elsewhere. Start again.");
        if (query.get("error"))
          return refuse(403, `the provider answered ${query.get("error")}`, `The identity provider refused the sign-in (${query.get("error")}).`);
        let claims: IdClaims;
        try {
          // the URL the provider redirected to, as registered: its parameters are read from here
          const current = new URL(`${pending.redirectUri}?${query}`);
          const client = await openidClient();
          const tokens = await client.authorizationCodeGrant((await provider())!.config, current, {
            pkceCodeVerifier: pending.verifier,
            expectedState: pending.state,
            expectedNonce: pending.nonce,
            idTokenExpected: true,
          });
          claims = tokens.claims() as IdClaims;
        } catch (err) {
          const reason = verificationFailure(err);
          ctx.logger.warn("OIDC sign-in refused", { reason });
          return refuse(400, reason, `The answer of the identity provider could not be verified: ${reason}`);
        }
        const account = await oidcAccount(ctx, oidc, claims, source);
        const email = typeof claims.email === "string" ? claims.email : null;
        if (!account.ok) return refuse(account.status, account.reason, `You may not sign in here: ${account.reason}.`, { email, userId: account.userId });
        // a new session id at every sign-in, as after a password
        await endSession(ctx, request, await signedInUser(ctx, request));
        const { setCookie } = await startSession(ctx, request, account.user, { source, method: "oidc" });
        return found(pending.next, [setCookie, clearedPendingCookie(secure)]);
      },
      { detail: { hide: true } },
    );
}
