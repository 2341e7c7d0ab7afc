import { t } from "elysia";
import type { AppContext } from "../../app-context";
import type { SessionSource } from "../../http/viewer";
import { requireWorkspace } from "../permissions";
import { listRefusals } from "../refusal-list";
import { consoleApiModule } from "./route-module";

const RefusalsQuery = t.Object({
  workspace_id: t.Optional(t.String({ minLength: 1 })),
  api_key_hash: t.Optional(t.String({ minLength: 1 })),
  status: t.Optional(t.Integer({ minimum: 400, maximum: 599, description: "the refused status: 401, 402, 413, 429 or 503" })),
  from: t.Optional(t.String({ minLength: 1 })),
  to: t.Optional(t.String({ minLength: 1 })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100 })),
  cursor: t.Optional(t.String({ minLength: 1 })),
});

/**
 * Requests refused before any generation (401, 402, 413, 429, 503), newest first: managers read
 * all of them (unknown callers included), a member those of their workspaces.
 */
export function consoleRefusalRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-refusals", ctx.store, sessions).get(
    "/refusals",
    ({ viewer, query }) => {
      if (query.workspace_id !== undefined) requireWorkspace(viewer, query.workspace_id);
      const workspaceIds = query.workspace_id !== undefined ? [query.workspace_id] : viewer.manages ? undefined : viewer.memberOf;
      return listRefusals(ctx, { ...query, workspaceIds, keyHash: query.api_key_hash });
    },
    { auth: "session", query: RefusalsQuery },
  );
}
