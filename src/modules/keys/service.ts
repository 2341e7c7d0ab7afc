import { GatewayError, badRequest, notFound } from "../../errors";
import type { Principal } from "../../http/principal";
import type { ApiKeyPatch, ApiKeyRecord, Store, WorkspaceRecord } from "../../store/store";
import { keySpend, limitRemainingNanos, type KeySpend } from "../../billing/key-figures";
import { nanosToUsd, usdToNanos } from "../../billing/money";
import { isoOrNull, isoTime, parseUtcDateTime } from "../../time";
import { generateRawKey, hashKey, maskKey } from "./key-secret";
import type { CreateKeyInput, CurrentKeyDataOut, KeyDataOut, UpdateKeyInput } from "./model";

/** `generations` (when given) is flushed before usage is read, so figures include every answer already sent */
export type KeyServiceDeps = { store: Store; clock: () => number; generations?: { flush(): void } };

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

export function renderKey(deps: KeyServiceDeps, key: ApiKeyRecord): KeyDataOut {
  deps.generations?.flush();
  const spend = keySpend(deps.store.usage.get(key.hash), deps.clock());
  return {
    hash: key.hash,
    name: key.name,
    label: key.label,
    disabled: key.disabled,
    ...limitFields(key, spend),
    ...spendFields(spend),
    created_at: isoTime(key.createdAt),
    updated_at: isoOrNull(key.updatedAt),
    expires_at: isoOrNull(key.expiresAt),
    creator_user_id: key.creatorUserId,
    external_user: key.externalUser,
    workspace_id: key.workspaceId,
  };
}

export function currentKey(deps: KeyServiceDeps, principal: Principal): CurrentKeyDataOut {
  const { key } = principal;
  deps.generations?.flush();
  const spend = keySpend(deps.store.usage.get(key.hash), deps.clock());
  return {
    label: key.label,
    ...limitFields(key, spend),
    ...spendFields(spend),
    is_free_tier: false,
    is_management_key: key.isManagement,
    is_provisioning_key: key.isManagement,
    creator_user_id: key.creatorUserId,
    organization_id: deps.store.meta.get("organization_id") ?? null,
    workspace_id: key.workspaceId,
    expires_at: isoOrNull(key.expiresAt),
    allowed_data_regions: ["global"],
    free_model_daily_requests: { limit: 0, remaining: 0, used: 0 },
    rate_limit: { requests: -1, interval: "10s", note: "This field is deprecated and safe to ignore." },
  };
}

function resolveWorkspace(store: Store, ref: string | undefined, field: string): WorkspaceRecord {
  const ws = ref === undefined ? store.workspaces.getDefault() : store.workspaces.find(ref);
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
  expiresAt?: number | null;
  externalUser?: string | null;
  /** use this secret instead of a random one (GATEWAY_ADMIN_KEY) */
  raw?: string;
};

/** Stores a new key and returns it with its raw secret, which exists only in this return value. */
export function insertKey(store: Store, now: number, input: NewKey): { record: ApiKeyRecord; raw: string } {
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
    expiresAt: input.expiresAt ?? null,
    createdAt: now,
    updatedAt: null,
  };
  store.keys.create(record);
  return { record, raw };
}

export function createKey(deps: KeyServiceDeps, principal: Principal, body: CreateKeyInput): { data: KeyDataOut; key: string } {
  const now = deps.clock();
  let expiresAt: number | null = null;
  if (body.expires_at !== undefined && body.expires_at !== null) {
    const parsed = parseUtcDateTime(body.expires_at);
    if (parsed === undefined)
      throw badRequest("Invalid field 'expires_at': expected a UTC ISO 8601 date-time with seconds, e.g. 2030-01-01T00:00:00Z", { field: "expires_at" });
    if (parsed <= now) throw badRequest("Invalid field 'expires_at': must be in the future", { field: "expires_at" });
    expiresAt = parsed;
  }
  const workspace = resolveWorkspace(deps.store, body.workspace_id, "workspace_id");
  const creator = body.creator_user_id ?? principal.key.creatorUserId;
  if (creator && !deps.store.users.get(creator)) throw badRequest(`Invalid field 'creator_user_id': no user '${creator}'`, { field: "creator_user_id" });
  const { record, raw } = insertKey(deps.store, now, {
    name: body.name,
    isManagement: false,
    workspaceId: workspace.id,
    creatorUserId: creator ?? null,
    limitNanos: body.limit === undefined || body.limit === null ? null : usdToNanos(body.limit),
    limitReset: body.limit_reset ?? null,
    includeByokInLimit: body.include_byok_in_limit ?? false,
    expiresAt,
    externalUser: body.external?.user ?? null,
  });
  return { data: renderKey(deps, record), key: raw };
}

export function listKeys(deps: KeyServiceDeps, query: { include_disabled?: boolean; offset?: number; workspace_id?: string }): KeyDataOut[] {
  const workspace = resolveWorkspace(deps.store, query.workspace_id, "workspace_id");
  return deps.store.keys
    .list({ workspaceId: workspace.id, includeDisabled: query.include_disabled ?? false, offset: query.offset ?? 0, limit: 1000 })
    .map((k) => renderKey(deps, k));
}

function findKey(store: Store, hash: string): ApiKeyRecord {
  const key = store.keys.get(hash);
  if (!key) throw new GatewayError(404, `API key not found: ${hash}`);
  return key;
}

export function getKey(deps: KeyServiceDeps, hash: string): KeyDataOut {
  return renderKey(deps, findKey(deps.store, hash));
}

export function updateKey(deps: KeyServiceDeps, hash: string, body: UpdateKeyInput): KeyDataOut {
  findKey(deps.store, hash);
  const patch: ApiKeyPatch = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.disabled !== undefined) patch.disabled = body.disabled;
  if (body.limit !== undefined) patch.limitNanos = body.limit === null ? null : usdToNanos(body.limit);
  if (body.limit_reset !== undefined) patch.limitReset = body.limit_reset;
  if (body.include_byok_in_limit !== undefined) patch.includeByokInLimit = body.include_byok_in_limit;
  const updated = deps.store.keys.update(hash, patch, deps.clock());
  if (!updated) throw new GatewayError(404, `API key not found: ${hash}`);
  return renderKey(deps, updated);
}

export function deleteKey(deps: KeyServiceDeps, hash: string): { deleted: true } {
  if (!deps.store.keys.delete(hash, deps.clock())) throw new GatewayError(404, `API key not found: ${hash}`);
  return { deleted: true };
}
