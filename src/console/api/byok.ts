import type { AppContext } from "../../app-context";
import type { SessionSource } from "../../http/viewer";
import { ByokParams, CreateByokBody, ListByokQuery, UpdateByokBody } from "../../modules/byok/model";
import { createByok, deleteByok, listByok, updateByok } from "../../modules/byok/service";
import { requireWorkspace } from "../permissions";
import { consoleApiModule } from "./route-module";

/**
 * BYOK provider credentials through the services of /api/v1/byok: only masked labels ever leave
 * the server. Managers add, rotate (a new `key` in place), disable and delete; a member reads
 * the credentials of one of their workspaces.
 */
export function consoleByokRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-byok", ctx.store, sessions)
    .get(
      "/byok",
      ({ viewer, query }) => {
        if (!viewer.manages) requireWorkspace(viewer, query.workspace_id ?? "");
        return listByok(ctx, query);
      },
      { auth: "session", query: ListByokQuery },
    )
    .post(
      "/byok",
      async ({ origin, body, set }) => {
        set.status = 201;
        return { data: await createByok(ctx, origin, body) };
      },
      { auth: "session:manager", body: CreateByokBody },
    )
    .patch(
      "/byok/:id",
      async ({ origin, params, body }) => {
        return { data: await updateByok(ctx, origin, params.id, body) };
      },
      { auth: "session:manager", params: ByokParams, body: UpdateByokBody },
    )
    .delete(
      "/byok/:id",
      ({ origin, params }) => {
        return deleteByok(ctx, origin, params.id);
      },
      { auth: "session:manager", params: ByokParams },
    );
}
