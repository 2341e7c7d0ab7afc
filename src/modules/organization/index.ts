import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { ListKeysResponse } from "../keys/model";
import { renderKey } from "../keys/service";
import { CreateUserBody, ListUsersResponse, PageQuery, RemovedUserResponse, RevokedKeysResponse, UserIdParams, UserResponse } from "./model";
import { createUser, listUsers, removeUser, revokeUserKeys, userKeys } from "./service";

export function organizationRoutes(ctx: AppContext) {
  return routeModule("organization", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .get("/organization/members", ({ query }) => listUsers(ctx, query), {
      auth: "management",
      query: PageQuery,
      response: ListUsersResponse,
      detail: { tags: ["Organization"], summary: "List the organization's users" },
    })
    .post(
      "/organization/members",
      async ({ origin, body, set }) => {
        set.status = 201;
        return { data: await createUser(ctx, origin, body) };
      },
      {
        auth: "management",
        body: CreateUserBody,
        response: { 201: UserResponse },
        detail: { tags: ["Organization"], summary: "Add a user to the organization (role admin or member)" },
      },
    )
    .delete("/organization/members/:id", ({ origin, params }) => removeUser(ctx, origin, params.id), {
      auth: "management",
      params: UserIdParams,
      response: RemovedUserResponse,
      detail: {
        tags: ["Organization"],
        summary: "Remove a user from the organization: their keys stop working at once, their sessions end (the owner stays; 409)",
      },
    })
    .get(
      "/organization/members/:id/keys",
      async ({ params }) => ({ data: await Promise.all((await userKeys(ctx, params.id)).map((k) => renderKey(ctx, k))) }),
      {
        auth: "management",
        params: UserIdParams,
        response: ListKeysResponse,
        detail: { tags: ["Organization"], summary: "List the API keys a user created, in every workspace" },
      },
    )
    .delete("/organization/members/:id/keys", async ({ origin, params }) => ({ revoked_count: await revokeUserKeys(ctx, origin, params.id) }), {
      auth: "management",
      params: UserIdParams,
      response: RevokedKeysResponse,
      detail: { tags: ["Organization"], summary: "Revoke every API key a user created; they stop working at once" },
    });
}
