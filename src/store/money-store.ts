import type { GenerationContentRecord } from "./generation-content-store";
import type { ObservationRecord } from "./observation-outbox-store";
import type { ResponseCacheEntry } from "./response-cache-store";

/** Spend: usage counters, generation records, reservations, workspace budgets, activity. Money is integer nano-dollars. */

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
  /** images an image generation returned (num_media_completion); null for other operations */
  numMediaCompletion?: number | null;
  /** the guardrail content filters that flagged the request (action "flag"); absent: none */
  guardrailFlags?: string[];
  createdAt: number;
  /** the response cache's verdict: hit, miss or bypass; null or absent when the cache was off (or not asked) */
  cacheStatus?: string | null;
  /** a hit: the generation whose answer it served */
  cacheSourceId?: string | null;
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
  /**
   * The outbox of the record: the generation to forward to observability destinations, stored in
   * the same transaction, so a crash can lose neither without the other. Stored only with a new record.
   */
  observation?: ObservationRecord | null;
  /** what I/O logging keeps of it, in the same transaction; stored only with a new record */
  content?: GenerationContentRecord | null;
  /** its answer for the response cache, in the same transaction; stored only with a new record, replacing the key's older entry */
  cacheEntry?: ResponseCacheEntry | null;
};

/**
 * `status`: success (not cancelled, no error), error (ended by an error), cancelled (the client left). `from`/`to`: ms, [from, to).
 * `flagged`: true, only those a guardrail content filter flagged; false, only those it did not.
 */
export type GenerationFilter = {
  workspaceId?: string;
  keyHash?: string;
  model?: string;
  provider?: string;
  status?: "success" | "error" | "cancelled";
  from?: number;
  to?: number;
  flagged?: boolean;
};

/** Where a page of generations ended: the last one's creation time and id. */
export type GenerationCursor = { createdAt: number; id: string };

export interface GenerationStore {
  /**
   * In one transaction: inserts every record, adds each one's spend to its key's counters and
   * releases its reservation. A record whose id is already stored is skipped with its spend,
   * so a retried batch never charges twice; its reservation is released all the same.
   */
  commit(batch: readonly SettledGeneration[]): Promise<void>;
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

/** What one reservation holds (nano-dollars): against its key, its workspace's budgets and its key creator's member row. */
export type HeldAmounts = { keyNanos: number; workspaceNanos: number; memberNanos: number };

/** A reservation as `restore` holds it again: whose it is, what it holds and its lease. */
export type HeldReservation = HeldAmounts & {
  keyHash: string;
  workspaceId: string;
  /** the member whose row `memberNanos` is held on (the key's creator), or null */
  memberUserId: string | null;
  instanceId: string;
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
  /**
   * Holds again, without a check, a reservation an earlier process took for work that outlived it
   * (a video job's, at a SQLite start: its book died with that process, while the job goes on and
   * its spend is still to come); true when it held it, false when it is open already. PostgreSQL
   * keeps reservations in rows, which no restart loses: there it holds nothing and returns false.
   */
  restore(id: string, held: HeldReservation): Promise<boolean>;
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

/**
 * A spending cap beyond the key's limit and the workspace's budgets (a guardrail's budget), named
 * by `id`: measured like a key limit, on the key's usage row (`on: "key"`: held with the key's
 * amount) or on its creator's member row in the workspace (`on: "member"`: held with `member`'s).
 */
export type CapCheck = { id: string; on: "key" | "member"; limitNanos: number; window: LimitWindow };

export type BudgetedReservationRequest = Omit<ReservationRequest, "limitNanos"> & {
  limitNanos: number | null;
  workspaceId: string;
  budgets: BudgetCheck[];
  workspaceAmountNanos: number;
  /** caps of the key's guardrails; absent: none */
  caps?: CapCheck[];
  /** the member the "member" caps are measured on, and the amount held against it; absent: none */
  member?: { userId: string; amountNanos: number } | null;
};

/**
 * What is left when a reservation did not fit (nano-dollars, never negative): of the key's limit
 * (null: it has none), of the workspace budget with the least left (null: no budgets), `budget`,
 * and of each cap of the request (absent: it had none).
 */
export type ReservationRefusal = { keyLeft: number | null; budgetLeft: number | null; budget: BudgetInterval | null; caps?: CapLeft[] };

export type CapLeft = { id: string; on: "key" | "member"; left: number };

export type BudgetInterval = "daily" | "weekly" | "monthly" | "lifetime";

export type WorkspaceBudgetRecord = {
  id: string;
  workspaceId: string;
  interval: BudgetInterval;
  limitNanos: number;
  /** fractions of the limit whose crossing sends a budget alert; null: none */
  alertThresholds: number[] | null;
  createdAt: number;
  updatedAt: number;
};

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

/** What a rollup groups by: one row per UTC day, model, key or provider, or one row in all. */
export type RollupGroup = "day" | "model" | "key" | "provider" | "all";

export type RollupQuery = {
  /** first and last UTC day (YYYY-MM-DD), inclusive */
  from: string;
  to: string;
  /** only these workspaces (undefined: all) */
  workspaceIds?: readonly string[];
  by: RollupGroup;
  /** the largest groups by spend first, at most this many (undefined: all, ordered by group) */
  top?: number;
};

/** `group` is the day, model, key hash or provider slug ("" for `all`) */
export type RollupRow = { group: string; requests: number; usageNanos: number; byokUsageNanos: number };

export interface ActivityStore {
  /** newest day first, then by model and endpoint (and workspace) */
  totals(query: ActivityQuery): Promise<ActivityTotals[]>;
  /** served requests and spend of a range of days, summed by one dimension (reads the day's rows by the primary key) */
  rollup(query: RollupQuery): Promise<RollupRow[]>;
}
