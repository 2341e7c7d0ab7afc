/**
 * Storage interfaces. Callers depend on these only; `sqlite/` implements them and a
 * Postgres dialect can be added as `pg/` without touching callers.
 * Times are epoch milliseconds, money integer nano-dollars.
 */

export type UserRole = "owner" | "admin" | "member";

export type UserRecord = { id: string; email: string | null; name: string | null; role: UserRole; createdAt: number };

export type WorkspaceRecord = {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  isDefault: boolean;
  defaultTextModel: string | null;
  defaultImageModel: string | null;
  defaultProviderSort: string | null;
  settings: Record<string, unknown>;
  createdBy: string | null;
  createdAt: number;
  updatedAt: number | null;
};

export type LimitReset = "daily" | "weekly" | "monthly";

export type ApiKeyRecord = {
  hash: string;
  name: string;
  label: string;
  isManagement: boolean;
  disabled: boolean;
  workspaceId: string;
  creatorUserId: string | null;
  externalUser: string | null;
  limitNanos: number | null;
  limitReset: LimitReset | null;
  includeByokInLimit: boolean;
  expiresAt: number | null;
  createdAt: number;
  updatedAt: number | null;
};

export type ApiKeyPatch = Partial<Pick<ApiKeyRecord, "name" | "disabled" | "limitNanos" | "limitReset" | "includeByokInLimit">>;

export interface MetaStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

export interface UserStore {
  create(user: UserRecord): UserRecord;
  get(id: string): UserRecord | undefined;
  list(offset: number, limit: number): UserRecord[];
  count(): number;
}

export interface WorkspaceStore {
  create(ws: WorkspaceRecord): WorkspaceRecord;
  /** by UUID or slug */
  find(ref: string): WorkspaceRecord | undefined;
  getDefault(): WorkspaceRecord | undefined;
  list(offset: number, limit: number): WorkspaceRecord[];
  count(): number;
}

export interface ApiKeyStore {
  create(key: ApiKeyRecord): ApiKeyRecord;
  get(hash: string): ApiKeyRecord | undefined;
  list(opts: { workspaceId: string; includeDisabled: boolean; offset: number; limit: number }): ApiKeyRecord[];
  update(hash: string, patch: ApiKeyPatch, now: number): ApiKeyRecord | undefined;
  /** soft delete: the key stops authenticating and disappears from lists */
  delete(hash: string, now: number): boolean;
  countManagement(): number;
  /** makes a stored key (even a deleted or disabled one) a live management key again */
  reviveAsManagement(hash: string, now: number): boolean;
}

export interface Store {
  meta: MetaStore;
  users: UserStore;
  workspaces: WorkspaceStore;
  keys: ApiKeyStore;
  usage: KeyUsageStore;
  generations: GenerationStore;
  reservations: ReservationStore;
  /** runs fn in one write transaction (BEGIN IMMEDIATE) */
  transaction<T>(fn: () => T): T;
  /** database reachable and all migrations applied */
  ready(): boolean;
  close(): void;
}

export type KeyUsageRow = {
  hash: string;
  dayKey: string;
  weekKey: string;
  monthKey: string;
  total: number;
  day: number;
  week: number;
  month: number;
  byokTotal: number;
  byokDay: number;
  byokWeek: number;
  byokMonth: number;
};

export interface KeyUsageStore {
  get(hash: string): KeyUsageRow | undefined;
  /** adds spend to the key's counters, resetting any window whose key changed; call inside a transaction */
  add(hash: string, nanos: number, byok: boolean, windows: { day: string; week: string; month: string }): void;
}

export type GenerationAttempt = { model: string; provider: string; endpoint: string; status: number; latency: number };

export type GenerationRecord = {
  id: string;
  keyHash: string;
  workspaceId: string;
  userId: string | null;
  apiType: string;
  requestedModel: string | null;
  model: string;
  providerName: string | null;
  endpointId: string | null;
  upstreamId: string | null;
  streamed: boolean;
  cancelled: boolean;
  finishReason: string | null;
  nativeFinishReason: string | null;
  tokensPrompt: number | null;
  tokensCompletion: number | null;
  tokensCached: number | null;
  tokensCacheWrite: number | null;
  tokensReasoning: number | null;
  usageEstimated: boolean;
  costNanos: number;
  promptCostNanos: number;
  completionCostNanos: number;
  isByok: boolean;
  latencyMs: number | null;
  generationTimeMs: number | null;
  timeToFirstTokenMs: number | null;
  attempts: GenerationAttempt[];
  sessionId: string | null;
  externalUser: string | null;
  presetId: string | null;
  trace: Record<string, unknown> | null;
  httpReferer: string | null;
  userAgent: string | null;
  origin: string | null;
  errorMessage: string | null;
  createdAt: number;
};

export interface GenerationStore {
  insert(gen: GenerationRecord): void;
  get(id: string): GenerationRecord | undefined;
  /** generations since `since` (ms), oldest first, for rebuilding live stats */
  since(since: number, limit: number): GenerationRecord[];
}

export type ReservationRequest = {
  id: string;
  key: Pick<ApiKeyRecord, "hash" | "limitNanos" | "limitReset" | "includeByokInLimit">;
  amountNanos: number;
  now: number;
};

export interface ReservationStore {
  /**
   * Atomically: if the key's limit minus its spend in the current window minus open
   * reservations leaves room for `amountNanos`, hold it and return null; otherwise return
   * what is left (nano-dollars, possibly 0) and hold nothing.
   */
  reserve(req: ReservationRequest): number | null;
  release(id: string): void;
  /** open reservations of a key, in nano-dollars */
  held(keyHash: string): number;
  /** forget every reservation (at start: requests of a previous process are gone) */
  clear(): number;
}
