import { Elysia } from "elysia";
import type { AppContext } from "../app-context";
import { loginRoutes } from "./login-routes";
import { stylesheetRoute } from "./stylesheet";

/** The server-rendered pages where people sign in (DESIGN.md "auth-web/"). */
export function authWebRoutes(ctx: AppContext) {
  return new Elysia({ name: "auth-web", normalize: false }).use(stylesheetRoute()).use(loginRoutes(ctx));
}
