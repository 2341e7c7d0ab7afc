import type { AppContext } from "../../app-context";
import type { SessionSource } from "../../http/viewer";
import {
  CreateDestinationBody,
  DestinationParams,
  DestinationScopeQuery,
  ListDestinationsQuery,
  SaveDestinationQuery,
  UpdateDestinationBody,
  UpdateDestinationQuery,
} from "../../modules/observability/model";
import {
  createDestination,
  deleteDestination,
  listDestinations,
  testEditedDestination,
  testNewDestination,
  updateDestination,
} from "../../modules/observability/service";
import { destinationTypeForms } from "../destination-types";
import { requireWorkspace } from "../permissions";
import { consoleApiModule } from "./route-module";

/**
 * Observability destinations through the services of /api/v1/observability/destinations (the same
 * checks, masking, 5-per-type limit and connection test). As with BYOK credentials, managers
 * create, test, edit, enable, disable and delete; a member reads the destinations of one of their
 * workspaces (secrets masked).
 */
export function consoleObservabilityRoutes(ctx: AppContext, sessions: SessionSource) {
  return (
    consoleApiModule("console-observability", ctx.store, sessions)
      .get("/destination-types", () => ({ data: destinationTypeForms(ctx.observability.senders) }), { auth: "session" })
      .get(
        "/destinations",
        ({ viewer, query }) => {
          if (!viewer.manages) requireWorkspace(viewer, query.workspace_id ?? "");
          return listDestinations(ctx, query);
        },
        { auth: "session", query: ListDestinationsQuery },
      )
      .post(
        "/destinations",
        async ({ origin, body, query, set }) => {
          const data = await createDestination(ctx, origin, body, query.skip_test ?? false);
          set.status = 201;
          return { data };
        },
        { auth: "session:manager", body: CreateDestinationBody, query: SaveDestinationQuery },
      )
      // "Test connection" of the create form: the probe a create would run, nothing saved
      .post("/destinations/test", async ({ body }) => ({ data: await testNewDestination(ctx, body) }), { auth: "session:manager", body: CreateDestinationBody })
      .patch(
        "/destinations/:id",
        async ({ origin, params, body, query }) => ({
          data: await updateDestination(ctx, origin, params.id, body, { skipTest: query.skip_test ?? false, workspaceRef: query.workspace_id }),
        }),
        { auth: "session:manager", params: DestinationParams, body: UpdateDestinationBody, query: UpdateDestinationQuery },
      )
      // "Test connection" of the edit form: the stored destination with the form's changes, nothing saved
      .post("/destinations/:id/test", async ({ params, body, query }) => ({ data: await testEditedDestination(ctx, params.id, body, query.workspace_id) }), {
        auth: "session:manager",
        params: DestinationParams,
        body: UpdateDestinationBody,
        query: DestinationScopeQuery,
      })
      .delete("/destinations/:id", ({ origin, params, query }) => deleteDestination(ctx, origin, params.id, query.workspace_id), {
        auth: "session:manager",
        params: DestinationParams,
        query: DestinationScopeQuery,
      })
  );
}
