import type { AppContext } from "../app-context";
import { GatewayError } from "../errors";
import { routeModule } from "../http/module";
import { callbackOrigin, callbackWith } from "../modules/auth/callback-url";
import { createAuthCode, keyWorkspacesOf } from "../modules/auth/service";
import { consentPath, consentRequest } from "./consent-request";
import { csrfTokenValid } from "./csrf";
import { formField } from "./form-fields";
import { htmlResponse, redirect } from "./page-response";
import { consentPage } from "./pages/consent-page";
import { messagePage } from "./pages/layout";
import { signedInUser } from "./session";

const problemPage = (status: number, problem: string) => htmlResponse(status, messagePage("This authorization cannot go on", problem));

/**
 * The consent page of the PKCE flow (what @openrouter/sdk's createAuthorizationUrl points at):
 * GET /auth signs the person in if needed and shows what the app asks for; POST /auth is the
 * Authorize / Deny form, which redirects back to the app with `code` or `error=access_denied`.
 */
export function consentRoutes(ctx: AppContext) {
  return routeModule("auth-web-consent")
    .get(
      "/auth",
      async ({ request }) => {
        const query = new URL(request.url).searchParams;
        const asked = consentRequest((name) => query.get(name) ?? undefined);
        if (!asked.ok) return problemPage(400, asked.problem);
        const session = await signedInUser(ctx, request);
        if (!session) return redirect(`/login?next=${encodeURIComponent(consentPath(asked.request))}`);
        const workspaces = await keyWorkspacesOf(ctx.store, { id: session.userId, role: session.role });
        const appOrigin = callbackOrigin(asked.request.callback_url);
        // form-action: browsers check the redirect that follows the form against it
        return htmlResponse(200, consentPage({ session, request: asked.request, appOrigin, workspaces }), { formTargets: [appOrigin] });
      },
      { detail: { hide: true } },
    )
    .post(
      "/auth",
      async ({ request, body }) => {
        const asked = consentRequest((name) => formField(body, name));
        const session = await signedInUser(ctx, request);
        if (!session) return redirect(asked.ok ? `/login?next=${encodeURIComponent(consentPath(asked.request))}` : "/login");
        if (!csrfTokenValid(session, formField(body, "csrf_token")))
          return problemPage(403, "The form was missing its security token, or it belongs to another session. Go back to the app and start again.");
        if (!asked.ok) return problemPage(400, asked.problem);
        const decision = formField(body, "decision");
        if (decision === "deny") return redirect(callbackWith(asked.request.callback_url, { error: "access_denied" }));
        if (decision !== "authorize") return problemPage(400, "Choose Authorize or Deny.");
        const user = await ctx.store.users.get(session.userId);
        if (!user) return redirect("/login");
        try {
          // the workspace chosen on the page (none: the default one); createAuthCode checks the person may use it
          const workspaceId = formField(body, "workspace_id") || undefined;
          const { code } = await createAuthCode(ctx, user, { ...asked.request, workspace_id: workspaceId });
          return redirect(callbackWith(asked.request.callback_url, { code }));
        } catch (err) {
          if (err instanceof GatewayError) return problemPage(err.status, err.message);
          throw err;
        }
      },
      { detail: { hide: true } },
    );
}
