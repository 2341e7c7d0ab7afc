import type { AppContext } from "../../app-context";
import { badRequest, GatewayError } from "../../errors";
import type { Principal } from "../../http/principal";
import type { Viewer } from "../../http/viewer";
import { canManageKey } from "../permissions";

/**
 * The Playground's caller: one of the viewer's own inference keys, as a client holding it would
 * call (its limits, rate limits and workspace apply, and the generation is the key's). The
 * console never holds a raw key, so the request is made for the key. Another's key is a 404.
 */
export async function playgroundPrincipal(ctx: AppContext, viewer: Viewer, keyHash: string): Promise<Principal> {
  const key = await ctx.store.keys.get(keyHash);
  if (!key || !canManageKey(viewer, key)) throw new GatewayError(404, `API key not found: ${keyHash}`);
  if (key.isManagement) throw badRequest("Invalid field 'key_hash': a management key cannot be used for inference", { field: "key_hash" });
  if (key.disabled) throw badRequest("Invalid field 'key_hash': the key is disabled", { field: "key_hash" });
  if (key.expiresAt !== null && key.expiresAt <= ctx.clock()) throw badRequest("Invalid field 'key_hash': the key has expired", { field: "key_hash" });
  const workspace = await ctx.store.workspaces.find(key.workspaceId);
  if (!workspace) throw badRequest("Invalid field 'key_hash': the key's workspace no longer exists", { field: "key_hash" });
  const user = key.creatorUserId ? ((await ctx.store.users.get(key.creatorUserId)) ?? null) : null;
  return { key, workspace, user, isManagement: false };
}
