import type { AppContext } from "../app-context";
import { requestSource } from "../http/change-origin";
import { clientAddress } from "../http/client-address";
import { routeModule } from "../http/module";
import { csrfTokenValid } from "./csrf";
import { formField } from "./form-fields";
import { formTokenFor, formTokenSubmitted } from "./form-token";
import { safeNextPath } from "./next-path";
import { htmlResponse, redirect } from "./page-response";
import { messagePage } from "./pages/layout";
import { loginPage } from "./pages/login-page";
import { signedInPage } from "./pages/signed-in-page";
import { endSession, signedInUser, startSession } from "./session";
import { recordSignInFailure } from "./session-events";
import { signInWithPassword } from "./sign-in";

function loginForm(
  ctx: AppContext,
  request: Request,
  status: number,
  next: string,
  extra: { email?: string; error?: string; headers?: Record<string, string> } = {},
): Response {
  const { token, setCookies } = formTokenFor(ctx, request);
  const { oidc, password } = ctx.config.auth;
  const page = loginPage({ formToken: token, next, email: extra.email, error: extra.error, password, sso: oidc && { label: oidc.buttonLabel } });
  return htmlResponse(status, page, { setCookies, headers: extra.headers });
}

/** GET and POST /login, POST /logout: people sign in with email and password (sign-in.ts) into a cookie session (session.ts). */
export function loginRoutes(ctx: AppContext) {
  return routeModule("auth-web-login")
    .get(
      "/login",
      async ({ request }) => {
        const nextParam = new URL(request.url).searchParams.get("next");
        const next = safeNextPath(nextParam);
        const session = await signedInUser(ctx, request);
        if (session) return nextParam === null ? htmlResponse(200, signedInPage(session)) : redirect(next);
        return loginForm(ctx, request, 200, next);
      },
      { detail: { hide: true } },
    )
    .post(
      "/login",
      async ({ request, body, server }) => {
        const next = safeNextPath(formField(body, "next"));
        const email = formField(body, "email")?.trim() ?? "";
        if (!formTokenSubmitted(request, formField(body, "csrf_token")))
          return loginForm(ctx, request, 403, next, { email, error: "This sign-in form expired. Please sign in again." });
        if (!ctx.config.auth.password) return loginForm(ctx, request, 403, next, { error: "Password sign-in is turned off here: use single sign-on." });
        const password = formField(body, "password") ?? "";
        if (email === "" || password === "") return loginForm(ctx, request, 400, next, { email, error: "Enter your email and password." });
        const source = requestSource(request, server);
        const outcome = await signInWithPassword(ctx, { email, password, address: clientAddress(server, request) });
        if (!outcome.ok) {
          await recordSignInFailure(
            ctx.store,
            ctx.clock(),
            { email, method: "password", reason: outcome.status === 429 ? "throttled" : "wrong email or password" },
            source,
          );
          const headers: Record<string, string> = outcome.retryAfterSeconds ? { "retry-after": String(outcome.retryAfterSeconds) } : {};
          return loginForm(ctx, request, outcome.status, next, { email, error: outcome.message, headers });
        }
        // a new session id at every sign-in: a cookie planted before sign-in is worth nothing after it
        await endSession(ctx, request, await signedInUser(ctx, request));
        const { setCookie } = await startSession(ctx, request, outcome.user, { source, method: "password" });
        return redirect(next, [setCookie]);
      },
      { detail: { hide: true } },
    )
    .post(
      "/logout",
      async ({ request, body, server }) => {
        const session = await signedInUser(ctx, request);
        if (!session) return redirect("/login");
        if (!csrfTokenValid(session, formField(body, "csrf_token") ?? request.headers.get("x-csrf-token")))
          return htmlResponse(403, messagePage("Sign out failed", "The form was missing its security token. Go back, reload the page and try again."));
        return redirect("/login", [await endSession(ctx, request, session, requestSource(request, server))]);
      },
      { detail: { hide: true } },
    );
}
