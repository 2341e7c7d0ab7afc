import { t } from "elysia";
import type { AppContext } from "../../app-context";
import type { SessionSource } from "../../http/viewer";
import { clearResponseCache } from "../../modules/cache/service";
import { findWorkspace } from "../../modules/workspaces/service";
import { requireWorkspace } from "../permissions";
import { consoleApiModule } from "./route-module";

/** What the console's Response cache page shows of one workspace. */
export type ConsoleCache = {
  workspace_id: string;
  enabled: boolean;
  ttl_seconds: number;
  default_mode: "on" | "off";
  max_entry_bytes: number;
  entries: number;
  bytes: number;
};

const WorkspaceQuery = t.Object({ workspace_id: t.String({ minLength: 1, maxLength: 200 }) });

/**
 * The response cache of one workspace: gateway.yaml's settings (read-only here: the file is the
 * operator's) and the workspace's unexpired entries, for everyone who sees the workspace; a purge,
 * `DELETE /api/v1/cache?workspace_id=` with its audit event, for organization owners and admins.
 */
export function consoleCacheRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-cache", ctx.store, sessions)
    .get(
      "/cache",
      async ({ viewer, query }) => {
        const ws = await findWorkspace(ctx.store, query.workspace_id);
        requireWorkspace(viewer, ws.id);
        const config = ctx.config.responseCache;
        // entries are written with their generation records: the batch in flight counts too
        await ctx.generations.settled();
        const stats = await ctx.store.responseCache.stats(ctx.clock(), ws.id);
        const data: ConsoleCache = {
          workspace_id: ws.id,
          enabled: config.enabled,
          ttl_seconds: Math.round(config.ttlMs / 1000),
          default_mode: config.defaultOn ? "on" : "off",
          max_entry_bytes: config.maxEntryBytes,
          entries: stats.entries,
          bytes: stats.bytes,
        };
        return { data };
      },
      { auth: "session", query: WorkspaceQuery },
    )
    .delete("/cache", ({ origin, query }) => clearResponseCache(ctx, origin, query.workspace_id), { auth: "session:manager", query: WorkspaceQuery });
}
