import { t } from "elysia";
import type { AppContext } from "../../app-context";
import type { SessionSource } from "../../http/viewer";
import { SlugParams, VersionParams } from "../../modules/presets/model";
import { getPresetVersion, listPresets, listPresetVersions } from "../../modules/presets/service";
import { requireWorkspace } from "../permissions";
import { consoleApiModule } from "./route-module";

const WorkspaceQuery = t.Object({ workspace_id: t.String({ minLength: 1 }) });

/** Presets of a workspace and their versions (the page diffs two), through the services of /api/v1/presets. */
export function consolePresetRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-presets", ctx.store, sessions)
    .get(
      "/presets",
      ({ viewer, query }) => {
        requireWorkspace(viewer, query.workspace_id);
        return listPresets(ctx, query.workspace_id, { limit: 100 });
      },
      { auth: "session", query: WorkspaceQuery },
    )
    .get(
      "/presets/:slug/versions",
      ({ viewer, params, query }) => {
        requireWorkspace(viewer, query.workspace_id);
        return listPresetVersions(ctx, query.workspace_id, params.slug, { limit: 100 });
      },
      { auth: "session", params: SlugParams, query: WorkspaceQuery },
    )
    .get(
      "/presets/:slug/versions/:version",
      async ({ viewer, params, query }) => {
        requireWorkspace(viewer, query.workspace_id);
        return { data: await getPresetVersion(ctx, query.workspace_id, params.slug, params.version) };
      },
      { auth: "session", params: VersionParams, query: WorkspaceQuery },
    );
}
