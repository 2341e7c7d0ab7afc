import { notFound } from "../../errors";
import type { Store } from "../../store/store";

/**
 * Empties the response cache: one workspace's entries, or every workspace's. An administrative
 * change of its own, so that an audit log can record it where it happens.
 */
export async function clearResponseCache(store: Pick<Store, "workspaces" | "responseCache">, workspaceRef: string | undefined): Promise<{ deleted: number }> {
  if (workspaceRef === undefined) return { deleted: await store.responseCache.clear(null) };
  const workspace = await store.workspaces.find(workspaceRef);
  if (!workspace) throw notFound(`Workspace not found: workspace_id '${workspaceRef}'`);
  return { deleted: await store.responseCache.clear(workspace.id) };
}
