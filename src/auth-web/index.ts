import { Elysia } from "elysia";
import type { AppContext } from "../app-context";
import { consentRoutes } from "./consent-routes";
import { inviteRoutes } from "./invite-routes";
import { loginRoutes } from "./login-routes";
import { oidcRoutes } from "./oidc/routes";
import { scimRoutes } from "./scim/routes";
import { stylesheetRoute } from "./stylesheet";

/** The server-rendered pages where people sign in and approve apps (DESIGN.md "auth-web/"). */
export function authWebRoutes(ctx: AppContext) {
  return new Elysia({ name: "auth-web", normalize: false })
    .use(stylesheetRoute())
    .use(loginRoutes(ctx))
    .use(oidcRoutes(ctx))
    .use(scimRoutes(ctx))
    .use(consentRoutes(ctx))
    .use(inviteRoutes(ctx));
}
