import type { Store } from "../../store/store";
import type { DimensionDefinition } from "./dimensions";

/**
 * Names in place of ids, as OpenRouter's analytics answers them: a key's name, a workspace's name,
 * a user's name (else email). An id whose record is gone stays as it is; "" (no user) stays "".
 */
export async function dimensionLabels(
  store: Pick<Store, "keys" | "workspaces" | "users">,
  dimensions: readonly DimensionDefinition[],
  values: (dimension: string) => Iterable<string>,
): Promise<(dimension: string, value: string) => string> {
  const labels = new Map<string, Map<string, string>>();
  const lookups: Record<string, (id: string) => Promise<string | undefined>> = {
    api_key_id: async (hash) => (await store.keys.get(hash))?.name,
    workspace: async (id) => (await store.workspaces.find(id))?.name,
    user: async (id) => {
      const user = await store.users.get(id);
      return user ? (user.name ?? user.email ?? undefined) : undefined;
    },
  };
  for (const d of dimensions) {
    const lookup = lookups[d.name];
    if (!lookup) continue;
    const ids = [...new Set(values(d.name))].filter((id) => id !== "");
    const names = await Promise.all(ids.map(lookup));
    labels.set(d.name, new Map(ids.map((id, i) => [id, names[i] ?? id])));
  }
  return (dimension, value) => labels.get(dimension)?.get(value) ?? value;
}
