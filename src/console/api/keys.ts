import { t } from "elysia";
import type { AppContext } from "../../app-context";
import { GatewayError } from "../../errors";
import type { SessionSource, Viewer } from "../../http/viewer";
import { CreateOwnKeyBody, HashParams, RotateKeyBody, UpdateKeyWithExpiryBody } from "../../modules/keys/model";
import { createKey, deleteKey, renderKey, rotateKey, updateKey } from "../../modules/keys/service";
import type { ApiKeyRecord } from "../../store/store";
import { consoleKeys } from "../keys-view";
import { canManageKey, requireWorkspace } from "../permissions";
import { consoleApiModule } from "./route-module";

const ListQuery = t.Object({ workspace_id: t.Optional(t.String({ minLength: 1 })), include_disabled: t.Optional(t.Boolean()) });

/** the key, when the viewer may manage it; 404 otherwise (a member does not learn of others' keys) */
async function ownKey(ctx: AppContext, viewer: Viewer, hash: string) {
  const key = await ctx.store.keys.get(hash);
  if (!key || !canManageKey(viewer, key)) throw new GatewayError(404, `API key not found: ${hash}`);
  return key;
}

/**
 * Keys, through the services of /api/v1/keys. Managers see and change every inference key;
 * a member sees, creates and changes only their own, in their workspaces.
 */
export function consoleKeyRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-keys", ctx.store, sessions)
    .get(
      "/keys",
      async ({ viewer, query }) => {
        if (query.workspace_id !== undefined) requireWorkspace(viewer, query.workspace_id);
        const inScope = (k: ApiKeyRecord) =>
          (query.workspace_id === undefined || k.workspaceId === query.workspace_id) && (query.include_disabled !== false || !k.disabled);
        await ctx.generations.settled();
        if (!viewer.manages) {
          const own = (await ctx.store.keys.listByCreator(viewer.userId)).filter((k) => canManageKey(viewer, k) && inScope(k));
          return { data: await consoleKeys(ctx, own) };
        }
        const workspaces = query.workspace_id !== undefined ? [query.workspace_id] : (await ctx.store.workspaces.list(0, 1000)).map((w) => w.id);
        const includeDisabled = query.include_disabled ?? true;
        const lists = await Promise.all(workspaces.map((id) => ctx.store.keys.list({ workspaceId: id, includeDisabled, offset: 0, limit: 1000 })));
        return { data: await consoleKeys(ctx, lists.flat()) };
      },
      { auth: "session", query: ListQuery },
    )
    .post(
      "/keys",
      async ({ viewer, origin, body, set }) => {
        if (!viewer.manages) requireWorkspace(viewer, body.workspace_id ?? (await ctx.store.workspaces.getDefault())?.id ?? "");
        set.status = 201;
        return createKey(ctx, origin, viewer.userId, body);
      },
      { auth: "session", body: CreateOwnKeyBody },
    )
    .get("/keys/:hash", async ({ viewer, params }) => ({ data: await renderKey(ctx, await ownKey(ctx, viewer, params.hash)) }), {
      auth: "session",
      params: HashParams,
    })
    .patch(
      "/keys/:hash",
      async ({ viewer, origin, params, body }) => {
        await ownKey(ctx, viewer, params.hash);
        return { data: await updateKey(ctx, origin, params.hash, body) };
      },
      { auth: "session", params: HashParams, body: UpdateKeyWithExpiryBody },
    )
    .post(
      "/keys/:hash/rotate",
      async ({ viewer, origin, params, body }) => {
        await ownKey(ctx, viewer, params.hash);
        return rotateKey(ctx, origin, params.hash, body ?? {});
      },
      { auth: "session", params: HashParams, body: t.Optional(RotateKeyBody) },
    )
    .delete(
      "/keys/:hash",
      async ({ viewer, origin, params }) => {
        await ownKey(ctx, viewer, params.hash);
        return deleteKey(ctx, origin, params.hash);
      },
      { auth: "session", params: HashParams },
    );
}
