import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { conflictDetail } from "../../http/openapi/error-responses";
import {
  CreateDestinationBody,
  DeletedResponse,
  DestinationParams,
  DestinationResponse,
  DestinationScopeQuery,
  ListDestinationsQuery,
  ListDestinationsResponse,
  SaveDestinationQuery,
  UpdateDestinationBody,
  UpdateDestinationQuery,
} from "./model";
import { createDestination, deleteDestination, getDestination, listDestinations, updateDestination } from "./service";

const tags = ["Observability"];

export function observabilityRoutes(ctx: AppContext) {
  return routeModule("observability", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .get("/observability/destinations", ({ query }) => listDestinations(ctx, query), {
      auth: "management",
      query: ListDestinationsQuery,
      response: ListDestinationsResponse,
      detail: { tags, summary: "List the observability destinations of a workspace (secrets masked)" },
    })
    .post(
      "/observability/destinations",
      async ({ origin, body, query, set }) => {
        const data = await createDestination(ctx, origin, body, query.skip_test ?? false);
        set.status = 201;
        return { data };
      },
      {
        auth: "management",
        body: CreateDestinationBody,
        query: SaveDestinationQuery,
        response: { 201: DestinationResponse },
        detail: {
          tags,
          summary: "Create an observability destination; saved only if its connection test passes (at most 5 per type)",
          ...conflictDetail("The workspace already has 5 destinations of this type"),
        },
      },
    )
    .get("/observability/destinations/:id", async ({ params, query }) => ({ data: await getDestination(ctx, params.id, query.workspace_id) }), {
      auth: "management",
      params: DestinationParams,
      query: DestinationScopeQuery,
      response: DestinationResponse,
      detail: { tags, summary: "Get an observability destination (secrets masked)" },
    })
    .patch(
      "/observability/destinations/:id",
      async ({ origin, params, body, query }) => ({
        data: await updateDestination(ctx, origin, params.id, body, { skipTest: query.skip_test ?? false, workspaceRef: query.workspace_id }),
      }),
      {
        auth: "management",
        params: DestinationParams,
        query: UpdateDestinationQuery,
        body: UpdateDestinationBody,
        response: DestinationResponse,
        detail: { tags, summary: "Update an observability destination: only the fields sent; masked config values keep the stored secret" },
      },
    )
    .delete("/observability/destinations/:id", ({ origin, params, query }) => deleteDestination(ctx, origin, params.id, query.workspace_id), {
      auth: "management",
      params: DestinationParams,
      query: DestinationScopeQuery,
      response: DeletedResponse,
      detail: { tags, summary: "Delete an observability destination (soft; its secrets are wiped)" },
    });
}
