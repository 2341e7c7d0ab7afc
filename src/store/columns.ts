/**
 * Record <-> column conversions both dialects share: JSON-bearing columns are text in both, so a
 * value reads back byte for byte, and a new preset or version is built the same way in both.
 */
import type {
  ApiKeyRecord,
  ByokPatch,
  ByokRecord,
  GenerationRecord,
  NewPresetVersion,
  PresetRecord,
  PresetVersionRecord,
  RateLimit,
  WorkspaceBudgetRecord,
  WorkspacePatch,
  WorkspaceRecord,
} from "./store";

/** The three rate-limit columns of api_keys and workspaces. */
type RateLimitColumns = { rateLimitRpm: number | null; rateLimitTpm: number | null; rateLimitConcurrency: number | null };

/** A row's rate-limit columns folded into the record's `rateLimit`; the other columns pass through. */
export function withRateLimit<R extends RateLimitColumns>({
  rateLimitRpm,
  rateLimitTpm,
  rateLimitConcurrency,
  ...rest
}: R): Omit<R, keyof RateLimitColumns> & { rateLimit: RateLimit } {
  return { ...rest, rateLimit: { rpm: rateLimitRpm, tpm: rateLimitTpm, concurrency: rateLimitConcurrency } };
}

/** A record's (or patch's) `rateLimit` spread over the three columns; absent stays absent. */
export function rateLimitColumns<R extends { rateLimit?: RateLimit }>({ rateLimit, ...rest }: R): Omit<R, "rateLimit"> & Partial<RateLimitColumns> {
  if (rateLimit === undefined) return rest;
  return { ...rest, rateLimitRpm: rateLimit.rpm, rateLimitTpm: rateLimit.tpm, rateLimitConcurrency: rateLimit.concurrency };
}

type GenerationRow = Omit<GenerationRecord, "attempts" | "trace" | "guardrailFlags"> & {
  attempts: string;
  trace: string | null;
  guardrailFlags: string | null;
};

/** The optional columns appear only when set, so a record written without them reads back equal. */
export const generationRecord = ({ guardrailFlags, cacheStatus, cacheSourceId, ...row }: GenerationRow): GenerationRecord => ({
  ...row,
  attempts: JSON.parse(row.attempts) as GenerationRecord["attempts"],
  trace: row.trace ? (JSON.parse(row.trace) as Record<string, unknown>) : null,
  ...(guardrailFlags ? { guardrailFlags: JSON.parse(guardrailFlags) as string[] } : {}),
  ...(cacheStatus ? { cacheStatus } : {}),
  ...(cacheSourceId ? { cacheSourceId } : {}),
});

export const generationRow = ({ guardrailFlags, ...gen }: GenerationRecord): GenerationRow => ({
  ...gen,
  attempts: JSON.stringify(gen.attempts),
  trace: gen.trace ? JSON.stringify(gen.trace) : null,
  guardrailFlags: guardrailFlags?.length ? JSON.stringify(guardrailFlags) : null,
});

type ApiKeyRow = Omit<ApiKeyRecord, "rateLimit" | "alertThresholds"> & RateLimitColumns & { deletedAt: number | null; alertThresholds: string | null };

const thresholdsOf = (text: string | null): number[] | null => (text === null ? null : (JSON.parse(text) as number[]));
const thresholdsText = (list: number[] | null | undefined) => (list === undefined ? undefined : list === null ? null : JSON.stringify(list));

export const apiKeyRecord = ({ deletedAt: _deleted, alertThresholds, ...row }: ApiKeyRow): ApiKeyRecord => ({
  ...withRateLimit(row),
  alertThresholds: thresholdsOf(alertThresholds),
});

/** A key (or a patch of one) as columns: rate limits spread, alert thresholds as JSON text; absent stays absent. */
export function apiKeyColumns<R extends { rateLimit?: RateLimit; alertThresholds?: number[] | null }>({ alertThresholds, ...rest }: R) {
  const thresholds = thresholdsText(alertThresholds);
  return { ...rateLimitColumns(rest), ...(thresholds === undefined ? {} : { alertThresholds: thresholds }) };
}

type BudgetRow = Omit<WorkspaceBudgetRecord, "alertThresholds"> & { alertThresholds: string | null };

export const budgetRecord = ({ alertThresholds, ...row }: BudgetRow): WorkspaceBudgetRecord => ({
  ...row,
  interval: row.interval,
  alertThresholds: thresholdsOf(alertThresholds),
});

export const budgetRow = (b: WorkspaceBudgetRecord): BudgetRow => ({ ...b, alertThresholds: thresholdsText(b.alertThresholds) ?? null });

type WorkspaceRow = Omit<WorkspaceRecord, "rateLimit" | "settings"> & RateLimitColumns & { settings: string };

export const workspaceRecord = (row: WorkspaceRow): WorkspaceRecord => ({
  ...withRateLimit(row),
  settings: JSON.parse(row.settings) as Record<string, unknown>,
});

/** The row of a new workspace. */
export const workspaceRow = (ws: WorkspaceRecord) => ({ ...rateLimitColumns(ws), settings: JSON.stringify(ws.settings) });

/** The columns a patch changes, and the time it was made. */
export function workspaceColumns(patch: WorkspacePatch, now: number) {
  const { settings, ...rest } = rateLimitColumns(patch);
  return { ...rest, updatedAt: now, ...(settings === undefined ? {} : { settings: JSON.stringify(settings) }) };
}

const parseList = (text: string | null): string[] | null => (text === null ? null : (JSON.parse(text) as string[]));
const listText = (list: string[] | null | undefined) => (list === undefined ? undefined : list === null ? null : JSON.stringify(list));

type ByokRow = Omit<ByokRecord, "allowedModels" | "allowedUserIds" | "allowedApiKeyHashes"> & {
  allowedModels: string | null;
  allowedUserIds: string | null;
  allowedApiKeyHashes: string | null;
  deletedAt: number | null;
};

export function byokRecord({ deletedAt: _deleted, ...row }: ByokRow): ByokRecord {
  return {
    ...row,
    allowedModels: parseList(row.allowedModels),
    allowedUserIds: parseList(row.allowedUserIds),
    allowedApiKeyHashes: parseList(row.allowedApiKeyHashes),
  };
}

export function byokColumns(patch: ByokPatch) {
  const { allowedModels, allowedUserIds, allowedApiKeyHashes, ...rest } = patch;
  return { ...rest, allowedModels: listText(allowedModels), allowedUserIds: listText(allowedUserIds), allowedApiKeyHashes: listText(allowedApiKeyHashes) };
}

/** The preset a first append creates: active, named after its slug, designated once its version exists. */
export function newPreset(input: NewPresetVersion): PresetRecord {
  return {
    id: crypto.randomUUID(),
    workspaceId: input.workspaceId,
    slug: input.slug,
    name: input.slug,
    description: null,
    status: "active",
    statusUpdatedAt: null,
    designatedVersionId: null,
    creatorUserId: input.creatorUserId,
    createdAt: input.now,
    updatedAt: input.now,
  };
}

type PresetVersionRow = Omit<PresetVersionRecord, "config"> & { config: string };

/** A version as stored; PostgreSQL's row also has its insertion order (`seq`), which stays in the store. */
export const presetVersionRecord = ({ seq: _seq, ...row }: PresetVersionRow & { seq?: number }): PresetVersionRecord => ({
  ...row,
  config: JSON.parse(row.config) as Record<string, unknown>,
});

export function newPresetVersion(presetId: string, version: number, input: NewPresetVersion): PresetVersionRecord {
  const { config, systemPrompt, format, creatorId, now } = input;
  return { id: crypto.randomUUID(), presetId, version, config, systemPrompt, format, creatorId, createdAt: now, updatedAt: now };
}
