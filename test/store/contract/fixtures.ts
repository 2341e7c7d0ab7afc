/** Shared records and the per-test store of the contract suite. */
import { afterEach, beforeEach } from "bun:test";
import type {
  ApiKeyRecord,
  ByokRecord,
  GenerationRecord,
  ReservationRequest,
  SettledGeneration,
  Store,
  UserRecord,
  WindowKeys,
  WorkspaceRecord,
} from "../../../src/store/store";
import { NO_RATE_LIMIT } from "../../../src/store/store";

export type OpenStore = () => Promise<{ store: Store; close(): Promise<void> }>;

/** A fresh, empty store for every test of the calling describe block. */
export function useStore(open: OpenStore): () => Store {
  let current: { store: Store; close(): Promise<void> } | undefined;
  beforeEach(async () => {
    current = await open();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error("no store open");
    return current.store;
  };
}

export const NOW = Date.parse("2026-11-22T12:00:00Z");
/** the window keys of NOW (billing/windows.ts would compute the same) */
export const TODAY: WindowKeys = { day: "2026-11-22", week: "2026-11-16", month: "2026-11" };
/** the next day: same ISO week and month */
export const TOMORROW: WindowKeys = { day: "2026-11-23", week: "2026-11-16", month: "2026-11" };
/** a day of the previous week and month */
export const LAST_MONTH: WindowKeys = { day: "2026-10-31", week: "2026-10-26", month: "2026-10" };

export const user = (id: string, createdAt: number, extra: Partial<UserRecord> = {}): UserRecord => ({
  id,
  email: `${id}@example.com`,
  name: `User ${id}`,
  role: "member",
  createdAt,
  disabled: false,
  ...extra,
});

export const workspace = (id: string, createdAt: number, extra: Partial<WorkspaceRecord> = {}): WorkspaceRecord => ({
  id,
  name: `Workspace ${id}`,
  slug: `slug-${id}`,
  description: null,
  isDefault: false,
  defaultTextModel: null,
  defaultImageModel: null,
  defaultProviderSort: null,
  rateLimit: NO_RATE_LIMIT,
  settings: {},
  webhookUrl: null,
  createdBy: null,
  createdAt,
  updatedAt: null,
  ...extra,
});

export const apiKey = (hash: string, workspaceId: string, createdAt: number, extra: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  hash,
  name: `key ${hash}`,
  label: `sk-...${hash}`,
  isManagement: false,
  disabled: false,
  workspaceId,
  creatorUserId: null,
  externalUser: null,
  limitNanos: null,
  limitReset: null,
  includeByokInLimit: false,
  rateLimit: NO_RATE_LIMIT,
  expiresAt: null,
  alertThresholds: null,
  createdAt,
  updatedAt: null,
  ...extra,
});

export const credential = (
  id: string,
  workspaceId: string | null,
  provider: string,
  createdAt: number,
  extra: Partial<ByokRecord> = {},
): Omit<ByokRecord, "sortOrder"> => {
  const { sortOrder: _ignored, ...rest } = extra;
  return {
    id,
    workspaceId,
    provider,
    name: null,
    label: `${provider}...${id}`,
    encryptedKey: `cipher-${id}`,
    disabled: false,
    isFallback: false,
    isRequired: false,
    isByokOnly: false,
    declaredZdr: null,
    allowedModels: null,
    allowedUserIds: null,
    allowedApiKeyHashes: null,
    createdAt,
    updatedAt: null,
    ...rest,
  };
};

export const generation = (id: string, keyHash: string, costNanos: number, extra: Partial<GenerationRecord> = {}): GenerationRecord => ({
  id,
  keyHash,
  workspaceId: "ws",
  userId: null,
  apiType: "completions",
  requestedModel: null,
  model: "acme/alpha",
  providerName: null,
  endpointId: null,
  upstreamId: null,
  streamed: false,
  cancelled: false,
  finishReason: null,
  nativeFinishReason: null,
  tokensPrompt: null,
  tokensCompletion: null,
  tokensCached: null,
  tokensCacheWrite: null,
  tokensReasoning: null,
  usageEstimated: false,
  costNanos,
  promptCostNanos: 0,
  completionCostNanos: costNanos,
  isByok: false,
  latencyMs: null,
  generationTimeMs: null,
  timeToFirstTokenMs: null,
  attempts: [],
  sessionId: null,
  externalUser: null,
  presetId: null,
  trace: null,
  httpReferer: null,
  userAgent: null,
  origin: null,
  errorMessage: null,
  numMediaCompletion: null,
  createdAt: NOW,
  ...extra,
});

/** a record that charges `nanos` (paid, or BYOK) in `windows` and releases `reservationId` */
export const settled = (
  record: GenerationRecord,
  opts: { reservationId?: string | null; nanos?: number | null; byok?: boolean; windows?: WindowKeys } = {},
): SettledGeneration => ({
  record,
  day: (opts.windows ?? TODAY).day,
  reservationId: opts.reservationId ?? null,
  spend: opts.nanos === null ? null : { nanos: opts.nanos ?? record.costNanos, byok: opts.byok ?? false, windows: opts.windows ?? TODAY },
});

/** A reservation of `amountNanos` against a limit without reset, unless `window` says otherwise. */
export const reservation = (
  id: string,
  keyHash: string,
  limitNanos: number,
  amountNanos: number,
  extra: Partial<ReservationRequest> = {},
): ReservationRequest => ({
  id,
  keyHash,
  limitNanos,
  window: { counter: "total", windowKey: "", includeByok: false },
  windows: TODAY,
  amountNanos,
  instanceId: "instance-a",
  now: NOW,
  expiresAt: NOW + 60_000,
  ...extra,
});

/** A usage row as KeyUsageStore.get returns it, every counter 0 unless given. */
export const usageRow = (
  hash: string,
  windows: WindowKeys,
  counters: Partial<Record<"total" | "day" | "week" | "month" | "byokTotal" | "byokDay" | "byokWeek" | "byokMonth", number>>,
) => ({
  hash,
  dayKey: windows.day,
  weekKey: windows.week,
  monthKey: windows.month,
  total: 0,
  day: 0,
  week: 0,
  month: 0,
  byokTotal: 0,
  byokDay: 0,
  byokWeek: 0,
  byokMonth: 0,
  ...counters,
});

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
