import type { AppContext } from "../app-context";
import { GatewayError } from "../errors";
import { requestSource } from "../http/change-origin";
import { routeModule } from "../http/module";
import { acceptInvite, inviteeOf } from "./accounts";
import { formField } from "./form-fields";
import { formTokenFor, formTokenSubmitted } from "./form-token";
import { htmlResponse, redirect } from "./page-response";
import { invitePage } from "./pages/invite-page";
import { messagePage } from "./pages/layout";
import { startSession } from "./session";

const INVALID = () =>
  htmlResponse(
    404,
    messagePage("Invite link not valid", "This invite link is unknown, was already used, or has expired. Ask an administrator for a new one.", [
      { href: "/login", label: "Sign in" },
    ]),
  );

/** GET and POST /invite: a user without a password follows the link `gateway users invite` printed, chooses one and is signed in. */
export function inviteRoutes(ctx: AppContext) {
  const form = (request: Request, status: number, inviteToken: string, email: string, error?: string) => {
    const { token, setCookies } = formTokenFor(ctx, request);
    return htmlResponse(status, invitePage({ formToken: token, inviteToken, email, error }), { setCookies });
  };
  return routeModule("auth-web-invite")
    .get(
      "/invite",
      async ({ request }) => {
        const token = new URL(request.url).searchParams.get("token") ?? "";
        const user = token ? await inviteeOf(ctx, token) : undefined;
        if (!user?.email) return INVALID();
        return form(request, 200, token, user.email);
      },
      { detail: { hide: true } },
    )
    .post(
      "/invite",
      async ({ request, body, server }) => {
        const token = formField(body, "token") ?? "";
        const user = token ? await inviteeOf(ctx, token) : undefined;
        if (!user?.email) return INVALID();
        if (!formTokenSubmitted(request, formField(body, "csrf_token"))) return form(request, 403, token, user.email, "This form expired. Please try again.");
        const password = formField(body, "password") ?? "";
        if (password !== formField(body, "confirm")) return form(request, 400, token, user.email, "The two passwords differ.");
        try {
          const source = requestSource(request, server);
          const accepted = await acceptInvite(ctx, source, token, password);
          if (!accepted) return INVALID();
          const { setCookie } = await startSession(ctx, request, accepted, { source, method: "invite" });
          return redirect("/login", [setCookie]);
        } catch (err) {
          if (err instanceof GatewayError && err.status === 400)
            return form(request, 400, token, user.email, err.message.replace(/^Invalid field 'password': the password/, "The password"));
          throw err;
        }
      },
      { detail: { hide: true } },
    );
}
