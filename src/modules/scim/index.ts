import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { CreateScimTokenBody, CreateScimTokenResponse, DeletedResponse, ListScimTokensResponse, ScimTokenParams } from "./model";
import { createScimToken, deleteScimToken, listScimTokens } from "./tokens";

const tags = ["SCIM"];

/** The tokens SCIM clients (an identity provider's provisioning) call /scim/v2 with: management keys only. */
export function scimManagementRoutes(ctx: AppContext) {
  return routeModule("scim-management", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .post(
      "/scim/tokens",
      async ({ origin, body, set }) => {
        set.status = 201;
        return createScimToken(ctx, origin, body.name);
      },
      {
        auth: "management",
        body: CreateScimTokenBody,
        response: { 201: CreateScimTokenResponse },
        detail: { tags, summary: "Create a SCIM token (the raw token is returned once)" },
      },
    )
    .get("/scim/tokens", () => listScimTokens(ctx), {
      auth: "management",
      response: ListScimTokensResponse,
      detail: { tags, summary: "List SCIM tokens" },
    })
    .delete("/scim/tokens/:id", ({ origin, params }) => deleteScimToken(ctx, origin, params.id), {
      auth: "management",
      params: ScimTokenParams,
      response: DeletedResponse,
      detail: { tags, summary: "Revoke a SCIM token" },
    });
}
