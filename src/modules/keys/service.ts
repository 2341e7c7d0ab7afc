import { changesBetween } from "../../audit/changes";
import type { ChangeOrigin } from "../../audit/origin";
import { type AuditTables, recordChange } from "../../audit/record";
import { type KeySpend, keySpend, limitRemainingNanos } from "../../billing/key-figures";
import { nanosToUsd, usdToNanos } from "../../billing/money";
import { generateRawKey, hashKey, maskKey } from "../../crypto/key-secret";
import { badRequest, GatewayError, notFound } from "../../errors";
import type { Principal } from "../../http/principal";
import { keyNumber } from "../../observability/capture/io-logging";
import { type ApiKeyPatch, type ApiKeyRecord, NO_RATE_LIMIT, type Store, type WorkspaceRecord } from "../../store/store";
import { isoOrNull, isoTime, parseUtcDateTime } from "../../time";
import { storedThresholds } from "./alert-thresholds";
import {
  type CreateKeyInput,
  type CurrentKeyDataOut,
  DEFAULT_GRACE_SECONDS,
  type KeyDataOut,
  type RotateKeyInput,
  type UpdateKeyWithExpiryInput,
} from "./model";
import { patchedRateLimit } from "./rate-limit";

/** `generations` (when given) is awaited before usage is read, so figures include every request that ended here */
export type KeyServiceDeps = { store: Store; clock: () => number; generations?: { settled(): Promise<void> } };

function spendFields(spend: KeySpend) {
  return {
    usage: nanosToUsd(spend.total),
    usage_daily: nanosToUsd(spend.day),
    usage_weekly: nanosToUsd(spend.week),
    usage_monthly: nanosToUsd(spend.month),
    byok_usage: nanosToUsd(spend.byokTotal),
    byok_usage_daily: nanosToUsd(spend.byokDay),
    byok_usage_weekly: nanosToUsd(spend.byokWeek),
    byok_usage_monthly: nanosToUsd(spend.byokMonth),
  };
}

function limitFields(key: ApiKeyRecord, spend: KeySpend) {
  const remaining = limitRemainingNanos(key, spend);
  return {
    limit: key.limitNanos === null ? null : nanosToUsd(key.limitNanos),
    limit_remaining: remaining === null ? null : nanosToUsd(remaining),
    limit_reset: key.limitReset,
    include_byok_in_limit: key.includeByokInLimit,
  };
}

export async function renderKey(deps: KeyServiceDeps, key: ApiKeyRecord): Promise<KeyDataOut> {
  await deps.generations?.settled();
  const spend = keySpend(await deps.store.usage.get(key.hash), deps.clock());
  return {
    hash: key.hash,
    name: key.name,
    label: key.label,
    disabled: key.disabled,
    ...limitFields(key, spend),
    rate_limit: key.rateLimit,
    alert_thresholds: key.alertThresholds,
    ...spendFields(spend),
    created_at: isoTime(key.createdAt),
    updated_at: isoOrNull(key.updatedAt),
    expires_at: isoOrNull(key.expiresAt),
    creator_user_id: key.creatorUserId,
    external_user: key.externalUser,
    workspace_id: key.workspaceId,
  };
}

export async function currentKey(deps: KeyServiceDeps, principal: Principal): Promise<CurrentKeyDataOut> {
  const { key } = principal;
  await deps.generations?.settled();
  const spend = keySpend(await deps.store.usage.get(key.hash), deps.clock());
  return {
    label: key.label,
    ...limitFields(key, spend),
    ...spendFields(spend),
    is_free_tier: false,
    is_management_key: key.isManagement,
    is_provisioning_key: key.isManagement,
    creator_user_id: key.creatorUserId,
    organization_id: (await deps.store.meta.get("organization_id")) ?? null,
    workspace_id: key.workspaceId,
    expires_at: isoOrNull(key.expiresAt),
    allowed_data_regions: ["global"],
    free_model_daily_requests: { limit: 0, remaining: 0, used: 0 },
    rate_limit: { requests: -1, interval: "10s", note: "This field is deprecated and safe to ignore." },
  };
}

/** The workspace a new key goes to: the one named (by id or slug), else the default. */
export async function resolveWorkspace(store: Pick<Store, "workspaces">, ref: string | undefined, field: string): Promise<WorkspaceRecord> {
  const ws = ref === undefined ? await store.workspaces.getDefault() : await store.workspaces.find(ref);
  if (!ws) throw ref === undefined ? badRequest("No default workspace exists; pass workspace_id") : notFound(`Workspace not found: ${field} '${ref}'`);
  return ws;
}

export type NewKey = {
  name: string;
  isManagement: boolean;
  workspaceId: string;
  creatorUserId: string | null;
  limitNanos?: number | null;
  limitReset?: ApiKeyRecord["limitReset"];
  includeByokInLimit?: boolean;
  rateLimit?: ApiKeyRecord["rateLimit"];
  expiresAt?: number | null;
  alertThresholds?: number[] | null;
  externalUser?: string | null;
  /** use this secret instead of a random one (GATEWAY_ADMIN_KEY) */
  raw?: string;
};

/** Stores a new key and returns it with its raw secret, which exists only in this return value. */
export async function insertKey(store: Pick<Store, "keys">, now: number, input: NewKey): Promise<{ record: ApiKeyRecord; raw: string }> {
  const raw = input.raw ?? generateRawKey();
  const record: ApiKeyRecord = {
    hash: hashKey(raw),
    name: input.name,
    label: maskKey(raw),
    isManagement: input.isManagement,
    disabled: false,
    workspaceId: input.workspaceId,
    creatorUserId: input.creatorUserId,
    externalUser: input.externalUser ?? null,
    limitNanos: input.limitNanos ?? null,
    limitReset: input.limitReset ?? null,
    includeByokInLimit: input.includeByokInLimit ?? false,
    rateLimit: input.rateLimit ?? NO_RATE_LIMIT,
    expiresAt: input.expiresAt ?? null,
    alertThresholds: input.alertThresholds ?? null,
    createdAt: now,
    updatedAt: null,
  };
  await store.keys.create(record);
  return { record, raw };
}

/**
 * A new key's expiry from an API field (`expires_at` of POST /keys and of an authorization code):
 * a UTC date-time with seconds, in the future; null or absent for none.
 */
export function keyExpiry(expiresAt: string | null | undefined, now: number, field = "expires_at"): number | null {
  if (expiresAt === undefined || expiresAt === null) return null;
  const parsed = parseUtcDateTime(expiresAt);
  if (parsed === undefined) throw badRequest(`Invalid field '${field}': expected a UTC ISO 8601 date-time with seconds, e.g. 2030-01-01T00:00:00Z`, { field });
  if (parsed <= now) throw badRequest(`Invalid field '${field}': must be in the future`, { field });
  return parsed;
}

/** A USD limit from the API as stored: nano-dollars, or null for none. */
export const keyLimitNanos = (limit: number | null | undefined): number | null => (limit === undefined || limit === null ? null : usdToNanos(limit));

/** What the audit log shows of a key: its settings as the API names them (its secret never was stored). */
export function auditedKey(key: ApiKeyRecord): Record<string, unknown> {
  return {
    name: key.name,
    label: key.label,
    is_management: key.isManagement,
    disabled: key.disabled,
    limit: key.limitNanos === null ? null : nanosToUsd(key.limitNanos),
    limit_reset: key.limitReset,
    include_byok_in_limit: key.includeByokInLimit,
    rate_limit: key.rateLimit,
    expires_at: isoOrNull(key.expiresAt),
    workspace_id: key.workspaceId,
    creator_user_id: key.creatorUserId,
    external_user: key.externalUser,
  };
}

/** Records a key's change in the transaction `tx` that makes it: null `before` for a new key, null `after` for a deleted one. */
export function recordKeyChange(
  tx: AuditTables,
  now: number,
  origin: ChangeOrigin,
  action: "key.create" | "key.update" | "key.delete" | "key.rotate",
  before: ApiKeyRecord | null,
  after: ApiKeyRecord | null,
) {
  const key = (after ?? before)!;
  return recordChange(tx, now, origin, {
    action,
    target: { type: "key", id: key.hash },
    workspaceId: key.workspaceId,
    changes: changesBetween(before && auditedKey(before), after && auditedKey(after)),
  });
}

/** `defaultCreator`: the key's user when the body names none (the calling key's, or the console's signed-in user) */
export async function createKey(
  deps: KeyServiceDeps,
  origin: ChangeOrigin,
  defaultCreator: string | null,
  body: CreateKeyInput,
): Promise<{ data: KeyDataOut; key: string }> {
  const now = deps.clock();
  const expiresAt = keyExpiry(body.expires_at, now);
  const workspace = await resolveWorkspace(deps.store, body.workspace_id, "workspace_id");
  const creator = body.creator_user_id ?? defaultCreator;
  if (creator && !(await deps.store.users.get(creator)))
    throw badRequest(`Invalid field 'creator_user_id': no user '${creator}'`, { field: "creator_user_id" });
  const { record, raw } = await deps.store.transaction(async (tx) => {
    const made = await insertKey(tx, now, {
      name: body.name,
      isManagement: false,
      workspaceId: workspace.id,
      creatorUserId: creator ?? null,
      limitNanos: keyLimitNanos(body.limit),
      limitReset: body.limit_reset ?? null,
      includeByokInLimit: body.include_byok_in_limit ?? false,
      rateLimit: patchedRateLimit(NO_RATE_LIMIT, body.rate_limit ?? null),
      alertThresholds: storedThresholds(body.alert_thresholds) ?? null,
      expiresAt,
      externalUser: body.external?.user ?? null,
    });
    await recordKeyChange(tx, now, origin, "key.create", null, made.record);
    return made;
  });
  return { data: await renderKey(deps, record), key: raw };
}

export async function listKeys(deps: KeyServiceDeps, query: { include_disabled?: boolean; offset?: number; workspace_id?: string }): Promise<KeyDataOut[]> {
  const workspace = await resolveWorkspace(deps.store, query.workspace_id, "workspace_id");
  const keys = await deps.store.keys.list({
    workspaceId: workspace.id,
    includeDisabled: query.include_disabled ?? false,
    offset: query.offset ?? 0,
    limit: 1000,
  });
  return Promise.all(keys.map((k) => renderKey(deps, k)));
}

async function findKey(store: Pick<Store, "keys">, hash: string): Promise<ApiKeyRecord> {
  const key = await store.keys.get(hash);
  if (!key) throw new GatewayError(404, `API key not found: ${hash}`);
  return key;
}

export async function getKey(deps: KeyServiceDeps, hash: string): Promise<KeyDataOut> {
  return renderKey(deps, await findKey(deps.store, hash));
}

/**
 * `expires_at` is the console's (UpdateKeyWithExpiryBody): the public PATCH /keys/{hash} has none
 * (as OpenRouter's), so its schema refuses the field.
 */
export async function updateKey(deps: KeyServiceDeps, origin: ChangeOrigin, hash: string, body: UpdateKeyWithExpiryInput): Promise<KeyDataOut> {
  const key = await findKey(deps.store, hash);
  const patch: ApiKeyPatch = {};
  if (body.expires_at !== undefined) patch.expiresAt = keyExpiry(body.expires_at, deps.clock());
  if (body.name !== undefined) patch.name = body.name;
  if (body.disabled !== undefined) patch.disabled = body.disabled;
  if (body.limit !== undefined) patch.limitNanos = body.limit === null ? null : usdToNanos(body.limit);
  if (body.limit_reset !== undefined) patch.limitReset = body.limit_reset;
  if (body.include_byok_in_limit !== undefined) patch.includeByokInLimit = body.include_byok_in_limit;
  if (body.rate_limit !== undefined) patch.rateLimit = patchedRateLimit(key.rateLimit, body.rate_limit);
  if (body.alert_thresholds !== undefined) patch.alertThresholds = storedThresholds(body.alert_thresholds) ?? null;
  const now = deps.clock();
  const updated = await deps.store.transaction(async (tx) => {
    const before = await findKey(tx, hash);
    const after = await tx.keys.update(hash, patch, now);
    if (after) await recordKeyChange(tx, now, origin, "key.update", before, after);
    return after;
  });
  if (!updated) throw new GatewayError(404, `API key not found: ${hash}`);
  return renderKey(deps, updated);
}

export async function deleteKey(deps: KeyServiceDeps, origin: ChangeOrigin, hash: string): Promise<{ deleted: true }> {
  const now = deps.clock();
  await deps.store.transaction(async (tx) => {
    const key = await findKey(tx, hash);
    if (!(await tx.keys.delete(hash, now))) throw new GatewayError(404, `API key not found: ${hash}`);
    await recordKeyChange(tx, now, origin, "key.delete", key, null);
  });
  return { deleted: true };
}

/**
 * Gives the key a new secret: its hash becomes the new secret's everywhere the key is named (its
 * usage and spend history, counters, generations, the lists of destinations and BYOK credentials,
 * the I/O-logging key numbers of its workspace), in one transaction; name, limits, workspace and
 * rate limits stay. The old secret keeps authenticating as the key for `grace_seconds` (default a
 * day), then answers 401. The new raw key exists only in this return value.
 */
export async function rotateKey(deps: KeyServiceDeps, origin: ChangeOrigin, hash: string, body: RotateKeyInput): Promise<{ data: KeyDataOut; key: string }> {
  const raw = generateRawKey();
  const newHash = hashKey(raw);
  const now = deps.clock();
  const graceMs = (body.grace_seconds ?? DEFAULT_GRACE_SECONDS) * 1000;
  const rotated = await deps.store.transaction(async (tx) => {
    const before = await tx.keys.get(hash);
    const key = await tx.keys.rotate({ hash, newHash, label: maskKey(raw), previousValidUntil: graceMs > 0 ? now + graceMs : null, now });
    if (!key) return undefined;
    // the key's identity moves to its new hash: the event names both (no secret: hashes only)
    await recordKeyChange(tx, now, origin, "key.rotate", before ?? null, key);
    const workspace = await tx.workspaces.find(key.workspaceId);
    const ids = workspace?.settings.io_logging_api_key_ids;
    if (workspace && Array.isArray(ids) && ids.includes(keyNumber(hash))) {
      const renumbered = ids.map((id) => (id === keyNumber(hash) ? keyNumber(newHash) : id));
      await tx.workspaces.update(workspace.id, { settings: { ...workspace.settings, io_logging_api_key_ids: renumbered } }, now);
    }
    return key;
  });
  if (!rotated) throw new GatewayError(404, `API key not found: ${hash}`);
  return { data: await renderKey(deps, rotated), key: raw };
}
