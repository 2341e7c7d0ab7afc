import type { AppContext } from "../app-context";
import type { GenerationRecord } from "../store/store";

/**
 * The names the console shows beside a record's ids: its key's name (null once the key is gone)
 * and its workspace's name, each looked up once per page (through the read cache).
 */
export async function recordNames(
  ctx: Pick<AppContext, "store">,
  records: readonly Pick<GenerationRecord, "keyHash" | "workspaceId">[],
): Promise<(r: Pick<GenerationRecord, "keyHash" | "workspaceId">) => { key_name: string | null; workspace_name: string | null }> {
  const keys = new Map<string, string | null>();
  const workspaces = new Map<string, string | null>();
  for (const r of records) {
    if (!keys.has(r.keyHash)) keys.set(r.keyHash, (await ctx.store.keys.get(r.keyHash))?.name ?? null);
    if (!workspaces.has(r.workspaceId)) workspaces.set(r.workspaceId, (await ctx.store.workspaces.find(r.workspaceId))?.name ?? null);
  }
  return (r) => ({ key_name: keys.get(r.keyHash) ?? null, workspace_name: workspaces.get(r.workspaceId) ?? null });
}
