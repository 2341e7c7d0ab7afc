import type { CacheTopic, InvalidationBus } from "../shared-state/types";
import { ReadCache } from "./read-cache";
import type {
  ApiKeyRecord,
  ApplyingGuardrail,
  ByokRecord,
  DestinationRecord,
  Store,
  StoreTables,
  UserRecord,
  WorkspaceBudgetRecord,
  WorkspaceRecord,
} from "./store";

/** Which cached lookups a write makes stale. */
const WRITES: {
  [T in "keys" | "workspaces" | "byok" | "users" | "budgets" | "destinations" | "guardrails"]: Partial<Record<keyof StoreTables[T], CacheTopic[]>>;
} = {
  keys: {
    create: ["keys"],
    update: ["keys"],
    delete: ["keys"],
    reviveAsManagement: ["keys"],
    deleteByCreator: ["keys"],
    rotate: ["keys", "byok", "destinations", "guardrails"],
  },
  workspaces: { create: ["workspaces"], update: ["workspaces"], delete: ["workspaces", "byok", "budgets", "destinations"] },
  byok: { create: ["byok"], update: ["byok"], delete: ["byok"] },
  users: { create: ["users"], update: ["users"], delete: ["users"] },
  budgets: { put: ["budgets"], delete: ["budgets"] },
  destinations: { create: ["destinations"], update: ["destinations"], delete: ["destinations"] },
  guardrails: {
    create: ["guardrails"],
    update: ["guardrails"],
    delete: ["guardrails"],
    assignKeys: ["guardrails"],
    unassignKeys: ["guardrails"],
    assignMembers: ["guardrails"],
    unassignMembers: ["guardrails"],
  },
};

type Caches = {
  keys: ReadCache<ApiKeyRecord>;
  workspaces: ReadCache<WorkspaceRecord>;
  users: ReadCache<UserRecord>;
  byok: ReadCache<ByokRecord[]>;
  budgets: ReadCache<WorkspaceBudgetRecord[]>;
  destinations: ReadCache<DestinationRecord[]>;
  guardrails: ReadCache<ApplyingGuardrail[]>;
};

/** Wraps the write methods of one table so that, once a write resolves, `stale` hears its topics. */
function watchWrites<T extends keyof typeof WRITES>(table: StoreTables[T], writes: (typeof WRITES)[T], stale: (topics: CacheTopic[]) => void): StoreTables[T] {
  const wrapped: Record<string, unknown> = { ...table };
  for (const [method, topics] of Object.entries(writes) as Array<[string, CacheTopic[]]>) {
    const original = (table as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[method]!;
    wrapped[method] = async (...args: unknown[]) => {
      const result = await original(...args);
      stale(topics);
      return result;
    };
  }
  return wrapped as unknown as StoreTables[T];
}

function watchTables(tables: StoreTables, stale: (topics: CacheTopic[]) => void): StoreTables {
  return {
    ...tables,
    keys: watchWrites<"keys">(tables.keys, WRITES.keys, stale),
    workspaces: watchWrites<"workspaces">(tables.workspaces, WRITES.workspaces, stale),
    byok: watchWrites<"byok">(tables.byok, WRITES.byok, stale),
    users: watchWrites<"users">(tables.users, WRITES.users, stale),
    budgets: watchWrites<"budgets">(tables.budgets, WRITES.budgets, stale),
    destinations: watchWrites<"destinations">(tables.destinations, WRITES.destinations, stale),
    guardrails: watchWrites<"guardrails">(tables.guardrails, WRITES.guardrails, stale),
  };
}

/**
 * The read cache in front of any store: the auth lookups (key, workspace, user), the BYOK
 * credentials, the budgets and the enabled observability destinations of a workspace, the guardrails of a key. A write clears this instance's cache at once and tells every
 * other instance through the bus; a write inside a transaction does so after the commit, since
 * a reader could otherwise cache what the transaction had not yet committed.
 */
export function withReadCache(store: Store, bus: InvalidationBus, opts: { ttlMs?: number; clock?: () => number } = {}): Store {
  const cache = (): ReadCache<never> => new ReadCache(opts.ttlMs ?? 1_000, 1_000, opts.clock);
  const caches: Caches = { keys: cache(), workspaces: cache(), users: cache(), byok: cache(), budgets: cache(), destinations: cache(), guardrails: cache() };
  // the secrets a rotation keeps for a grace: every request with an old secret looks it up
  const previousKeys: ReadCache<{ keyHash: string; validUntil: number }> = cache();
  const clear = (topic: CacheTopic) => {
    caches[topic].clear();
    if (topic === "keys") previousKeys.clear();
  };
  bus.subscribe(clear);
  const stale = (topics: CacheTopic[]) => {
    for (const topic of topics) {
      clear(topic);
      bus.publish(topic);
    }
  };
  const outside = watchTables(store, stale);
  return {
    ...outside,
    dialect: store.dialect,
    keys: {
      ...outside.keys,
      get: (hash) => caches.keys.get(hash, () => store.keys.get(hash)),
      previous: (hash) => previousKeys.get(hash, () => store.keys.previous(hash)),
    },
    workspaces: { ...outside.workspaces, find: (ref) => caches.workspaces.get(ref, () => store.workspaces.find(ref)) },
    users: { ...outside.users, get: (id) => caches.users.get(id, () => store.users.get(id)) },
    // usable() always answers a list, so the cache never misses to undefined here
    byok: { ...outside.byok, usable: (workspaceId) => caches.byok.get(workspaceId, () => store.byok.usable(workspaceId)) as Promise<ByokRecord[]> },
    // every request of a workspace looks its budgets up (admission), most find none
    budgets: {
      ...outside.budgets,
      list: (workspaceId) => caches.budgets.get(workspaceId, () => store.budgets.list(workspaceId)) as Promise<WorkspaceBudgetRecord[]>,
    },
    // every finished generation asks where its workspace forwards it; most workspaces have no destination
    destinations: {
      ...outside.destinations,
      enabledIn: (workspaceId) => caches.destinations.get(workspaceId, () => store.destinations.enabledIn(workspaceId)) as Promise<DestinationRecord[]>,
    },
    // every request asks which guardrails apply to its key (the policy step); most keys have none
    guardrails: {
      ...outside.guardrails,
      applying: (defaultId, key) => caches.guardrails.get(key.hash, () => store.guardrails.applying(defaultId, key)) as Promise<ApplyingGuardrail[]>,
    },
    async transaction(fn) {
      const touched = new Set<CacheTopic>();
      const result = await store.transaction((tx) => fn(watchTables(tx, (topics) => topics.forEach((t) => touched.add(t)))));
      stale([...touched]);
      return result;
    },
    ready: () => store.ready(),
    close: () => store.close(),
  };
}
