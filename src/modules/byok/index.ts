import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { ByokParams, ByokResponse, CreateByokBody, DeletedResponse, ListByokQuery, ListByokResponse, UpdateByokBody } from "./model";
import { createByok, deleteByok, getByok, listByok, updateByok } from "./service";

const tags = ["BYOK"];

export function byokRoutes(ctx: AppContext) {
  return routeModule("byok", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .get("/byok", ({ query }) => listByok(ctx, query), {
      auth: "management",
      query: ListByokQuery,
      response: ListByokResponse,
      detail: { tags, summary: "List BYOK provider credentials (the keys themselves are never returned)" },
    })
    .post(
      "/byok",
      async ({ origin, body, set }) => {
        const data = await createByok(ctx, origin, body);
        set.status = 201;
        return { data };
      },
      {
        auth: "management",
        body: CreateByokBody,
        response: { 201: ByokResponse },
        detail: { tags, summary: "Store a provider key, encrypted, for a workspace" },
      },
    )
    .get("/byok/:id", async ({ params }) => ({ data: await getByok(ctx, params.id) }), {
      auth: "management",
      params: ByokParams,
      response: ByokResponse,
      detail: { tags, summary: "Get a BYOK credential" },
    })
    .patch("/byok/:id", async ({ origin, params, body }) => ({ data: await updateByok(ctx, origin, params.id, body) }), {
      auth: "management",
      params: ByokParams,
      body: UpdateByokBody,
      response: ByokResponse,
      detail: { tags, summary: "Update a BYOK credential; `key` rotates it in place" },
    })
    .delete("/byok/:id", ({ origin, params }) => deleteByok(ctx, origin, params.id), {
      auth: "management",
      params: ByokParams,
      response: DeletedResponse,
      detail: { tags, summary: "Delete a BYOK credential (its key material is wiped)" },
    });
}
