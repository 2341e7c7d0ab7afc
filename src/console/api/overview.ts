import { t } from "elysia";
import type { AppContext } from "../../app-context";
import type { SessionSource } from "../../http/viewer";
import { consoleOverview } from "../overview";
import { requireWorkspace, visibleWorkspaces } from "../permissions";
import { consoleApiModule } from "./route-module";

/** The overview of the organization (managers) or of the viewer's workspaces, optionally of one workspace. */
export function consoleOverviewRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-overview", ctx.store, sessions).get(
    "/overview",
    async ({ viewer, query }) => {
      if (query.workspace_id !== undefined) requireWorkspace(viewer, query.workspace_id);
      const scope = query.workspace_id !== undefined ? [query.workspace_id] : visibleWorkspaces(viewer);
      return { data: await consoleOverview(ctx, scope, viewer.manages) };
    },
    { auth: "session", query: t.Object({ workspace_id: t.Optional(t.String({ minLength: 1 })) }) },
  );
}
