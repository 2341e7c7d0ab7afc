import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { CreateUserBody, ListUsersResponse, PageQuery, UserResponse } from "./model";
import { createUser, listUsers } from "./service";

export function organizationRoutes(ctx: AppContext) {
  return routeModule("organization", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .get("/organization/members", ({ query }) => listUsers(ctx, query), {
      auth: "management",
      query: PageQuery,
      response: ListUsersResponse,
      detail: { tags: ["Organization"], summary: "List the organization's users" },
    })
    .post("/organization/members", async ({ body, set }) => {
      set.status = 201;
      return { data: await createUser(ctx, body) };
    }, {
      auth: "management",
      body: CreateUserBody,
      response: { 201: UserResponse },
      detail: { tags: ["Organization"], summary: "Add a user to the organization (role admin or member)" },
    });
}
