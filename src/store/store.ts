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
  update(id: string, patch: WorkspacePatch, now: number): WorkspaceRecord | undefined;
  /** removes the workspace and its memberships; its BYOK credentials are soft-deleted and wiped */
  delete(id: string, now: number): boolean;
  /** keys of the workspace that still authenticate (live, enabled, not expired at `now`) */
  countActiveKeys(id: string, now: number): number;
  /** which of `userIds` created keys of the workspace that still authenticate */
  usersWithActiveKeys(id: string, userIds: string[], now: number): string[];
}

export type WorkspacePatch = Partial<
  Pick<WorkspaceRecord, "name" | "slug" | "description" | "defaultTextModel" | "defaultImageModel" | "defaultProviderSort" | "settings">
>;

export interface ApiKeyStore {
  create(key: ApiKeyRecord): ApiKeyRecord;
  get(hash: string): ApiKeyRecord | undefined;
  list(opts: { workspaceId: string; includeDisabled: boolean; offset: number; limit: number }): ApiKeyRecord[];
  update(hash: string, patch: ApiKeyPatch, now: number): ApiKeyRecord | undefined;
  /** soft delete: the key stops authenticating and disappears from lists */
  delete(hash: string, now: number): boolean;
  countManagement(): number;
  /** makes a stored key (even a deleted or disabled one) a live management key of `workspaceId` again */
  reviveAsManagement(hash: string, now: number, workspaceId: string): boolean;
}

export interface Store {
  meta: MetaStore;
  users: UserStore;
  workspaces: WorkspaceStore;
  keys: ApiKeyStore;
  usage: KeyUsageStore;
  generations: GenerationStore;
  reservations: ReservationStore;
  presets: PresetStore;
  members: WorkspaceMemberStore;
  byok: ByokStore;
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

export type PresetStatus = "active" | "disabled" | "archived";

export type PresetRecord = {
  id: string;
  workspaceId: string;
  slug: string;
  name: string;
  description: string | null;
  status: PresetStatus;
  statusUpdatedAt: number | null;
  designatedVersionId: string | null;
  creatorUserId: string | null;
  createdAt: number;
  updatedAt: number;
};

export type PresetVersionRecord = {
  id: string;
  presetId: string;
  version: number;
  config: Record<string, unknown>;
  systemPrompt: string | null;
  creatorId: string | null;
  createdAt: number;
  updatedAt: number;
};

export type NewPresetVersion = {
  workspaceId: string;
  slug: string;
  config: Record<string, unknown>;
  systemPrompt: string | null;
  creatorUserId: string | null;
  creatorId: string | null;
  now: number;
};

export interface PresetStore {
  /**
   * In one write transaction: creates the preset (status active) when the workspace has no
   * preset with this slug, appends version max+1 and designates it. Racing callers get
   * consecutive versions.
   */
  appendVersion(input: NewPresetVersion): { preset: PresetRecord; version: PresetVersionRecord };
  find(workspaceId: string, slug: string): PresetRecord | undefined;
  /** most recently updated first */
  list(workspaceId: string, offset: number, limit: number): PresetRecord[];
  count(workspaceId: string): number;
  getVersion(presetId: string, version: number): PresetVersionRecord | undefined;
  getVersionById(id: string): PresetVersionRecord | undefined;
  /** version ascending */
  listVersions(presetId: string, offset: number, limit: number): PresetVersionRecord[];
  countVersions(presetId: string): number;
}

export type WorkspaceMemberRecord = { id: string; workspaceId: string; userId: string; role: "admin" | "member"; createdAt: number };

export interface WorkspaceMemberStore {
  list(workspaceId: string, offset: number, limit: number): WorkspaceMemberRecord[];
  count(workspaceId: string): number;
  get(workspaceId: string, userId: string): WorkspaceMemberRecord | undefined;
  /** inserts or updates (role) each membership; returns them as stored */
  upsert(members: WorkspaceMemberRecord[]): WorkspaceMemberRecord[];
  /** how many of the users were members */
  remove(workspaceId: string, userIds: string[]): number;
}

export type ByokRecord = {
  id: string;
  /** null: applies to every workspace */
  workspaceId: string | null;
  provider: string;
  name: string | null;
  label: string;
  /** base64 of iv | ciphertext | tag; "" once deleted */
  encryptedKey: string;
  disabled: boolean;
  isFallback: boolean;
  isRequired: boolean;
  isByokOnly: boolean;
  declaredZdr: boolean | null;
  allowedModels: string[] | null;
  allowedUserIds: string[] | null;
  allowedApiKeyHashes: string[] | null;
  sortOrder: number;
  createdAt: number;
  updatedAt: number | null;
};

export type ByokPatch = Partial<
  Pick<
    ByokRecord,
    "name" | "label" | "encryptedKey" | "disabled" | "isFallback" | "isRequired" | "isByokOnly" | "declaredZdr" | "allowedModels" | "allowedUserIds" | "allowedApiKeyHashes"
  >
>;

export type ByokFilter = { workspaceId?: string; provider?: string };

export interface ByokStore {
  /** stores the credential with sort_order = last of its workspace and provider + 1 */
  create(cred: Omit<ByokRecord, "sortOrder">): ByokRecord;
  get(id: string): ByokRecord | undefined;
  /** by workspace, provider, sort_order */
  list(filter: ByokFilter, offset: number, limit: number): ByokRecord[];
  count(filter: ByokFilter): number;
  update(id: string, patch: ByokPatch, now: number): ByokRecord | undefined;
  /** soft delete; the key material is wiped */
  delete(id: string, now: number): boolean;
  /** enabled credentials a request of the workspace may use (its own and global ones), by sort_order */
  usable(workspaceId: string): ByokRecord[];
}
