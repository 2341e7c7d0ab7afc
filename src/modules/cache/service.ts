import type { ChangeOrigin } from "../../audit/origin";
import { recordChange } from "../../audit/record";
import { notFound } from "../../errors";
import type { Store } from "../../store/store";

/**
 * Empties the response cache: one workspace's entries, or every workspace's. An administrative
 * change of its own: the purge and its audit event commit together.
 */
export async function clearResponseCache(
  deps: { store: Pick<Store, "workspaces" | "transaction">; clock: () => number },
  origin: ChangeOrigin,
  workspaceRef: string | undefined,
): Promise<{ deleted: number }> {
  const workspace = workspaceRef === undefined ? null : await deps.store.workspaces.find(workspaceRef);
  if (workspace === undefined) throw notFound(`Workspace not found: workspace_id '${workspaceRef}'`);
  const now = deps.clock();
  return deps.store.transaction(async (tx) => {
    const deleted = await tx.responseCache.clear(workspace?.id ?? null);
    await recordChange(tx, now, origin, {
      action: "cache.purge",
      target: { type: "response_cache", id: workspace?.id ?? null },
      workspaceId: workspace?.id ?? null,
      changes: { deleted: { from: null, to: deleted } },
    });
    return { deleted };
  });
}
