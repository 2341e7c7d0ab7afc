/**
 * Storage interfaces. Callers depend on these only; `sqlite/` (bun:sqlite, the embedded default)
 * and `pg/` (PostgreSQL through Bun.sql) implement them and pass one contract suite
 * (test/store/contract.ts). Every method is asynchronous. The store keeps values and applies no
 * policy: billing decides windows and amounts and hands them over as plain values.
 * Times are epoch milliseconds, money integer nano-dollars.
 */

import type { JobStore } from "./job-store";
import type { VideoJobStore } from "./video-job-store";

export type UserRole = "owner" | "admin" | "member";

/**
 * A key's or a workspace's rate limits; null: no limit of that kind (for a key: the workspace's
 * default applies). Requests and tokens count per fixed UTC minute; concurrency counts requests
 * in flight.
 */
export type RateLimit = { rpm: number | null; tpm: number | null; concurrency: number | null };

export const NO_RATE_LIMIT: RateLimit = { rpm: null, tpm: null, concurrency: null };

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
  /** the default of the workspace's keys, limit by limit */
  rateLimit: RateLimit;
  settings: Record<string, unknown>;
  /** the default callback URL of the workspace's webhooks */
  webhookUrl: string | null;
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
  rateLimit: RateLimit;
  expiresAt: number | null;
  createdAt: number;
  updatedAt: number | null;
};

export type ApiKeyPatch = Partial<Pick<ApiKeyRecord, "name" | "disabled" | "limitNanos" | "limitReset" | "includeByokInLimit" | "rateLimit">>;

export interface MetaStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
}

export interface UserStore {
  create(user: UserRecord): Promise<UserRecord>;
  get(id: string): Promise<UserRecord | undefined>;
  list(offset: number, limit: number): Promise<UserRecord[]>;
  count(): Promise<number>;
}

export interface WorkspaceStore {
  create(ws: WorkspaceRecord): Promise<WorkspaceRecord>;
  /** by UUID or slug */
  find(ref: string): Promise<WorkspaceRecord | undefined>;
  getDefault(): Promise<WorkspaceRecord | undefined>;
  list(offset: number, limit: number): Promise<WorkspaceRecord[]>;
  count(): Promise<number>;
  update(id: string, patch: WorkspacePatch, now: number): Promise<WorkspaceRecord | undefined>;
  /** removes the workspace, its memberships and webhook secret; its BYOK credentials are soft-deleted and wiped */
  delete(id: string, now: number): Promise<boolean>;
  /** keys of the workspace that still authenticate (live, enabled, not expired at `now`) */
  countActiveKeys(id: string, now: number): Promise<number>;
  /** which of `userIds` created keys of the workspace that still authenticate */
  usersWithActiveKeys(id: string, userIds: string[], now: number): Promise<string[]>;
}

export type WorkspacePatch = Partial<
  Pick<WorkspaceRecord, "name" | "slug" | "description" | "defaultTextModel" | "defaultImageModel" | "defaultProviderSort" | "rateLimit" | "settings" | "webhookUrl">
>;

/** A workspace's webhook signing secrets, sealed; `previous*` only after a rotation. */
export type WebhookSecretRecord = {
  workspaceId: string;
  sealedSecret: string;
  sealedPreviousSecret: string | null;
  previousValidUntil: number | null;
  rotatedAt: number;
};

export interface WebhookSecretStore {
  get(workspaceId: string): Promise<WebhookSecretRecord | undefined>;
  /** creates or replaces the workspace's row */
  put(record: WebhookSecretRecord): Promise<WebhookSecretRecord>;
}

export interface ApiKeyStore {
  create(key: ApiKeyRecord): Promise<ApiKeyRecord>;
  get(hash: string): Promise<ApiKeyRecord | undefined>;
  list(opts: { workspaceId: string; includeDisabled: boolean; offset: number; limit: number }): Promise<ApiKeyRecord[]>;
  update(hash: string, patch: ApiKeyPatch, now: number): Promise<ApiKeyRecord | undefined>;
  /** soft delete: the key stops authenticating and disappears from lists */
  delete(hash: string, now: number): Promise<boolean>;
  countManagement(): Promise<number>;
  /** makes a stored key (even a deleted or disabled one) a live management key of `workspaceId` again */
  reviveAsManagement(hash: string, now: number, workspaceId: string): Promise<boolean>;
}
/** The stores one transaction sees. */
export type StoreTables = {
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
  responses: ResponseStateStore;
  budgets: WorkspaceBudgetStore;
  activity: ActivityStore;
  /** the outbox: enqueue inside `transaction` to store a job with the change that causes it */
  jobs: JobStore;
  webhookSecrets: WebhookSecretStore;
  videoJobs: VideoJobStore;
};

export type Dialect = "sqlite" | "postgres";

export interface Store extends StoreTables {
  readonly dialect: Dialect;
  /**
   * Runs fn in one write transaction, serialised with every other `transaction()` of every
   * process on the database (SQLite: BEGIN IMMEDIATE; PostgreSQL: a transaction-scoped advisory
   * lock), so a read-modify-write inside it sees no concurrent writer. Use `tx`, not the outer
   * store, inside fn, and await its calls one at a time (PostgreSQL runs some of them in
   * savepoints). Rolled back when fn throws.
   */
  transaction<T>(fn: (tx: StoreTables) => Promise<T>): Promise<T>;
  /** database reachable and all migrations applied */
  ready(): Promise<boolean>;
  close(): Promise<void>;
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
  get(hash: string): Promise<KeyUsageRow | undefined>;
  /** adds spend to the key's counters, resetting any window whose key changed */
  add(hash: string, spend: SpendEntry): Promise<void>;
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

/** Spend a recorded generation adds to its key's counters (computed by billing). */
export type SpendEntry = { nanos: number; byok: boolean; windows: WindowKeys };

export type WindowKeys = { day: string; week: string; month: string };

export type SettledGeneration = {
  record: GenerationRecord;
  /** the UTC day (YYYY-MM-DD) whose activity counters a served generation adds to */
  day: string;
  /** the request's reservation, released in the same transaction */
  reservationId: string | null;
  /** null: nothing to add (free, or not charged) */
  spend: SpendEntry | null;
};

/** `status`: success (not cancelled, no error), error (ended by an error), cancelled (the client left). `from`/`to`: ms, [from, to). */
export type GenerationFilter = {
  workspaceId?: string;
  keyHash?: string;
  model?: string;
  provider?: string;
  status?: "success" | "error" | "cancelled";
  from?: number;
  to?: number;
};

/** Where a page of generations ended: the last one's creation time and id. */
export type GenerationCursor = { createdAt: number; id: string };

export interface GenerationStore {
  /**
   * In one transaction: inserts every record, adds each one's spend to its key's counters and
   * releases its reservation. A record whose id is already stored is skipped with its spend,
   * so a retried batch never charges twice; its reservation is released all the same.
   */
  commit(batch: SettledGeneration[]): Promise<void>;
  get(id: string): Promise<GenerationRecord | undefined>;
  /** generations since `since` (ms), oldest first (ties by id), for rebuilding live stats */
  since(since: number, limit: number): Promise<GenerationRecord[]>;
  /** newest first (ties by id, descending), those before `before` when given: keyset pagination */
  list(filter: GenerationFilter, before: GenerationCursor | null, limit: number): Promise<GenerationRecord[]>;
  addFeedback(feedback: GenerationFeedbackRecord): Promise<void>;
  /** a generation's feedback, oldest first */
  feedback(generationId: string): Promise<GenerationFeedbackRecord[]>;
}

export type GenerationFeedbackRecord = { id: string; generationId: string; keyHash: string; category: string; comment: string | null; createdAt: number };

/**
 * Which spend counts against a limit: one counter of the key's usage row (`total` for a limit
 * without reset), read only while its window key is the current one (`day`/`week`/`month` keys
 * from billing/windows.ts), plus the BYOK counter of the same window when `includeByok`.
 */
export type LimitWindow = { counter: "total" | "day" | "week" | "month"; windowKey: string; includeByok: boolean };

export type ReservationRequest = {
  id: string;
  keyHash: string;
  limitNanos: number;
  window: LimitWindow;
  /** the current window keys, to start a usage row the key does not have yet */
  windows: WindowKeys;
  amountNanos: number;
  /** the instance holding it renews the lease; past `expiresAt` any instance may release it */
  instanceId: string;
  now: number;
  expiresAt: number;
};

export interface ReservationStore {
  /**
   * In one atomic step across every instance: if the limit minus the window's spend minus the
   * key's open reservations is positive and leaves room for `amountNanos`, hold it and return
   * null; otherwise return what is left (nano-dollars, possibly 0) and hold nothing. (Nothing
   * left refuses even a zero amount.)
   */
  reserve(req: ReservationRequest): Promise<number | null>;
  release(id: string): Promise<void>;
  /** open reservations of a key, in nano-dollars */
  held(keyHash: string): Promise<number>;
  /** moves the lease of every reservation the instance holds to `expiresAt`; returns how many */
  renew(instanceId: string, expiresAt: number): Promise<number>;
  /** releases reservations whose lease ended before `now` (their instance died); returns how many */
  releaseExpired(now: number): Promise<number>;
  /** releases every reservation (SQLite at start: one process owns the file, and only it may reserve) */
  releaseAll(): Promise<number>;
  /** how many reservations are open (every instance's), for the metrics */
  openCount(): Promise<number>;
  /**
   * Like `reserve`, in one atomic step over the key's limit (none when `limitNanos` is null: the
   * key holds nothing) and every budget of the workspace: holds `amountNanos` against the key
   * and `workspaceAmountNanos` against the workspace only if both fit, and returns null; else
   * holds nothing and returns what is left of each.
   */
  reserveWithBudgets(req: BudgetedReservationRequest): Promise<ReservationRefusal | null>;
}

/** A budget as the store checks it: its limit, measured like a key limit on the workspace's usage row. */
export type BudgetCheck = { interval: BudgetInterval; limitNanos: number; window: LimitWindow };

export type BudgetedReservationRequest = Omit<ReservationRequest, "limitNanos"> & {
  limitNanos: number | null;
  workspaceId: string;
  budgets: BudgetCheck[];
  workspaceAmountNanos: number;
};

/**
 * What is left when a reservation did not fit (nano-dollars, never negative): of the key's limit
 * (null: it has none), and of the workspace budget with the least left (null: no budgets), `budget`.
 */
export type ReservationRefusal = { keyLeft: number | null; budgetLeft: number | null; budget: BudgetInterval | null };

export type BudgetInterval = "daily" | "weekly" | "monthly" | "lifetime";

export type WorkspaceBudgetRecord = { id: string; workspaceId: string; interval: BudgetInterval; limitNanos: number; createdAt: number; updatedAt: number };

/** A workspace's spend counters: the columns of a key's usage row, for the workspace. */
export type WorkspaceUsageRow = Omit<KeyUsageRow, "hash"> & { workspaceId: string };

export interface WorkspaceBudgetStore {
  /** daily, weekly, monthly, lifetime order */
  list(workspaceId: string): Promise<WorkspaceBudgetRecord[]>;
  /** every budget of every workspace */
  listAll(): Promise<WorkspaceBudgetRecord[]>;
  /** creates the budget, or changes its limit keeping its id and creation time; returns it as stored */
  put(budget: WorkspaceBudgetRecord): Promise<WorkspaceBudgetRecord>;
  delete(workspaceId: string, interval: BudgetInterval): Promise<boolean>;
  usage(workspaceId: string): Promise<WorkspaceUsageRow | undefined>;
  /** the workspace shares of open reservations, in nano-dollars */
  held(workspaceId: string): Promise<number>;
  /** all-time spend of every workspace together (paid and BYOK) */
  totalSpend(): Promise<{ total: number; byokTotal: number }>;
}

/** Activity counters summed over one day, model and endpoint (and workspace, when grouped by it). */
export type ActivityTotals = {
  day: string;
  workspaceId: string | null;
  model: string;
  providerName: string;
  endpointId: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  usageNanos: number;
  byokUsageNanos: number;
};

export type ActivityQuery = {
  /** first and last UTC day (YYYY-MM-DD), inclusive */
  from: string;
  to: string;
  workspaceId?: string;
  keyHash?: string;
  userId?: string;
  byWorkspace: boolean;
};

export interface ActivityStore {
  /** newest day first, then by model and endpoint (and workspace) */
  totals(query: ActivityQuery): Promise<ActivityTotals[]>;
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

/** The inference endpoints a preset version can be created through, named as the api kinds. */
export const PRESET_FORMATS = ["openai-chat", "openai-responses", "anthropic-messages"] as const;
export type PresetFormat = (typeof PRESET_FORMATS)[number];

export type PresetVersionRecord = {
  id: string;
  presetId: string;
  version: number;
  /** in the field names of `format` */
  config: Record<string, unknown>;
  systemPrompt: string | null;
  /** the endpoint that created the version; null for versions written before the format was recorded */
  format: PresetFormat | null;
  creatorId: string | null;
  createdAt: number;
  updatedAt: number;
};

export type NewPresetVersion = {
  workspaceId: string;
  slug: string;
  config: Record<string, unknown>;
  systemPrompt: string | null;
  format: PresetFormat;
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
  appendVersion(input: NewPresetVersion): Promise<{ preset: PresetRecord; version: PresetVersionRecord }>;
  find(workspaceId: string, slug: string): Promise<PresetRecord | undefined>;
  /** most recently updated first */
  list(workspaceId: string, offset: number, limit: number): Promise<PresetRecord[]>;
  count(workspaceId: string): Promise<number>;
  getVersion(presetId: string, version: number): Promise<PresetVersionRecord | undefined>;
  getVersionById(id: string): Promise<PresetVersionRecord | undefined>;
  /** version ascending */
  listVersions(presetId: string, offset: number, limit: number): Promise<PresetVersionRecord[]>;
  countVersions(presetId: string): Promise<number>;
}

export type WorkspaceMemberRecord = { id: string; workspaceId: string; userId: string; role: "admin" | "member"; createdAt: number };

export interface WorkspaceMemberStore {
  list(workspaceId: string, offset: number, limit: number): Promise<WorkspaceMemberRecord[]>;
  count(workspaceId: string): Promise<number>;
  get(workspaceId: string, userId: string): Promise<WorkspaceMemberRecord | undefined>;
  /** inserts or updates (role) each membership; returns them as stored */
  upsert(members: WorkspaceMemberRecord[]): Promise<WorkspaceMemberRecord[]>;
  /** how many of the users were members */
  remove(workspaceId: string, userIds: string[]): Promise<number>;
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
  create(cred: Omit<ByokRecord, "sortOrder">): Promise<ByokRecord>;
  get(id: string): Promise<ByokRecord | undefined>;
  /** by workspace, provider, sort_order */
  list(filter: ByokFilter, offset: number, limit: number): Promise<ByokRecord[]>;
  count(filter: ByokFilter): Promise<number>;
  update(id: string, patch: ByokPatch, now: number): Promise<ByokRecord | undefined>;
  /** soft delete; the key material is wiped */
  delete(id: string, now: number): Promise<boolean>;
  /** enabled credentials a request of the workspace may use (its own and global ones), by sort_order */
  usable(workspaceId: string): Promise<ByokRecord[]>;
}

/**
 * A Responses answer kept so that later requests of its workspace can refer to it. JSON values
 * are stored as given and read back equal.
 */
export type StoredResponse = {
  /** the response id the client saw */
  id: string;
  workspaceId: string;
  /** the input items the response answered, references resolved */
  input: unknown[];
  /** the output items exactly as the client received them; `id` makes one referable */
  output: Array<Record<string, unknown>>;
  createdAt: number;
  expiresAt: number;
  /** stored items the request referred to: they are kept until `expiresAt` too */
  referencedItemIds: string[];
};

export interface ResponseStateStore {
  /** stores the response and its output items; a response id already stored is left as it was */
  save(response: StoredResponse): Promise<void>;
  /** output items of the workspace by id, leaving out those expired at `now`; an id stored twice answers the later response's item */
  items(workspaceId: string, ids: string[], now: number): Promise<Map<string, unknown>>;
  /** the response's input and output items, if the workspace has it and it has not expired at `now` */
  conversation(workspaceId: string, responseId: string, now: number): Promise<{ input: unknown[]; output: unknown[] } | undefined>;
  /** deletes what expired at `now`; returns how many responses went */
  purgeExpired(now: number): Promise<number>;
}
