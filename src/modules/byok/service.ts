import { changesBetween } from "../../audit/changes";
import type { ChangeOrigin } from "../../audit/origin";
import { type AuditTables, recordChange } from "../../audit/record";
import type { Catalog } from "../../catalog/types";
import type { Config } from "../../config";
import { type SecretBox, secretBoxOf } from "../../crypto/secret-box";
import { badRequest, notFound } from "../../errors";
import { type MediaConfig, mediaCatalogOf } from "../../media/build-media-catalog";
import type { HostLookup } from "../../outbound/host-lookup";
import type { ByokPatch, ByokRecord, Store, WorkspaceRecord } from "../../store/store";
import { isoTime } from "../../time";
import { checkByokKey } from "./credential-check";
import type { ByokDataOut, CreateByokInput, ListByokInput, UpdateByokInput } from "./model";
import { checkedProviderKey } from "./provider-key";

export type ByokDeps = {
  store: Store;
  clock: () => number;
  catalog: Catalog;
  config: Pick<Config, "secretKey" | "databasePath" | "security"> & MediaConfig;
  secrets?: SecretBox;
  lookup?: HostLookup;
};

export function renderByok(c: ByokRecord): ByokDataOut {
  return {
    id: c.id,
    provider: c.provider,
    name: c.name,
    label: c.label,
    disabled: c.disabled,
    is_fallback: c.isFallback,
    is_required: c.isRequired,
    is_byok_only: c.isByokOnly,
    declared_zdr: c.declaredZdr,
    allowed_models: c.allowedModels,
    allowed_user_ids: c.allowedUserIds,
    allowed_api_key_hashes: c.allowedApiKeyHashes,
    sort_order: c.sortOrder,
    workspace_id: c.workspaceId,
    created_at: isoTime(c.createdAt),
  };
}

/** Records a credential's change in the transaction `tx` that makes it; its key shows only as changed (the ciphertext differs), never in clear. */
function recordByokChange(tx: AuditTables, now: number, origin: ChangeOrigin, before: ByokRecord | null, after: ByokRecord | null) {
  const shown = (c: ByokRecord | null) => {
    if (!c) return null;
    const { created_at: _c, ...fields } = renderByok(c);
    return { ...fields, key: c.encryptedKey };
  };
  const cred = (after ?? before)!;
  return recordChange(tx, now, origin, {
    action: !before ? "byok.create" : !after ? "byok.delete" : "byok.update",
    target: { type: "byok", id: cred.id },
    workspaceId: cred.workspaceId,
    changes: changesBetween(shown(before), shown(after), ["key"]),
  });
}

/** A credential is only useful for a provider the catalog (chat or media) can route to. */
function knownProvider(deps: Pick<ByokDeps, "catalog" | "config">, slug: string, field: string): string {
  if (!deps.catalog.getProvider(slug) && !mediaCatalogOf(deps.config).provider(slug))
    throw badRequest(`Invalid ${field} 'provider': unknown provider '${slug}'`, { field: "provider" });
  return slug;
}

/** The key checked against the provider's API (a stored credential's provider may have left the catalog). */
const labelOf = (catalog: Catalog, slug: string, key: string): string => checkedProviderKey(catalog.getProvider(slug)?.api, key).label;

async function workspaceFor(store: Store, ref: string | undefined, where: string): Promise<WorkspaceRecord> {
  const ws = ref === undefined ? await store.workspaces.getDefault() : await store.workspaces.find(ref);
  if (!ws)
    throw badRequest(ref === undefined ? "No default workspace exists; pass workspace_id" : `Invalid ${where} 'workspace_id': no workspace '${ref}'`, {
      field: "workspace_id",
    });
  return ws;
}

function assertFlagsCompatible(isFallback: boolean, isByokOnly: boolean): void {
  if (isFallback && isByokOnly) throw badRequest("Invalid field 'is_fallback': a fallback credential cannot also be is_byok_only", { field: "is_fallback" });
}

async function findCredential(store: Pick<Store, "byok">, id: string): Promise<ByokRecord> {
  const cred = await store.byok.get(id);
  if (!cred) throw notFound(`BYOK key not found: ${id}`);
  return cred;
}

export async function createByok(deps: ByokDeps, origin: ChangeOrigin, body: CreateByokInput): Promise<ByokDataOut> {
  const provider = knownProvider(deps, body.provider, "field");
  assertFlagsCompatible(body.is_fallback ?? false, body.is_byok_only ?? false);
  const label = labelOf(deps.catalog, provider, body.key);
  const ws = await workspaceFor(deps.store, body.workspace_id, "field");
  await checkByokKey(deps, provider, body.key);
  const encryptedKey = await secretBoxOf(deps).seal(body.key);
  const now = deps.clock();
  // sort_order is the last of its scope + 1: serialised with other writers
  const record = await deps.store.transaction(async (tx) => {
    const created = await tx.byok.create({
      id: crypto.randomUUID(),
      workspaceId: ws.id,
      provider,
      name: body.name ?? null,
      label,
      encryptedKey,
      disabled: body.disabled ?? false,
      isFallback: body.is_fallback ?? false,
      isRequired: body.is_required ?? false,
      isByokOnly: body.is_byok_only ?? false,
      declaredZdr: body.declared_zdr ?? null,
      allowedModels: body.allowed_models ?? null,
      allowedUserIds: body.allowed_user_ids ?? null,
      allowedApiKeyHashes: body.allowed_api_key_hashes ?? null,
      createdAt: now,
      updatedAt: null,
    });
    await recordByokChange(tx, now, origin, null, created);
    return created;
  });
  return renderByok(record);
}

export async function listByok(deps: ByokDeps, query: ListByokInput): Promise<{ data: ByokDataOut[]; total_count: number }> {
  const filter = {
    workspaceId: query.workspace_id === undefined ? undefined : (await workspaceFor(deps.store, query.workspace_id, "query parameter")).id,
    provider: query.provider === undefined ? undefined : knownProvider(deps, query.provider, "query parameter"),
  };
  const page = await deps.store.byok.list(filter, query.offset ?? 0, query.limit ?? 50);
  return { data: page.map(renderByok), total_count: await deps.store.byok.count(filter) };
}

export async function getByok(deps: ByokDeps, id: string): Promise<ByokDataOut> {
  return renderByok(await findCredential(deps.store, id));
}

export async function updateByok(deps: ByokDeps, origin: ChangeOrigin, id: string, body: UpdateByokInput): Promise<ByokDataOut> {
  const current = await findCredential(deps.store, id);
  assertFlagsCompatible(body.is_fallback ?? current.isFallback, body.is_byok_only ?? current.isByokOnly);
  const patch: ByokPatch = {};
  if (body.key !== undefined) {
    await checkByokKey(deps, current.provider, body.key);
    // rotation in place: new ciphertext, new label, same id and position
    patch.label = labelOf(deps.catalog, current.provider, body.key);
    patch.encryptedKey = await secretBoxOf(deps).seal(body.key);
  }
  if (body.name !== undefined) patch.name = body.name;
  if (body.disabled !== undefined) patch.disabled = body.disabled;
  if (body.is_fallback !== undefined) patch.isFallback = body.is_fallback;
  if (body.is_required !== undefined) patch.isRequired = body.is_required;
  if (body.is_byok_only !== undefined) patch.isByokOnly = body.is_byok_only;
  if (body.declared_zdr !== undefined) patch.declaredZdr = body.declared_zdr;
  if (body.allowed_models !== undefined) patch.allowedModels = body.allowed_models;
  if (body.allowed_user_ids !== undefined) patch.allowedUserIds = body.allowed_user_ids;
  if (body.allowed_api_key_hashes !== undefined) patch.allowedApiKeyHashes = body.allowed_api_key_hashes;
  const now = deps.clock();
  const updated = await deps.store.transaction(async (tx) => {
    const before = await findCredential(tx, id);
    const after = await tx.byok.update(id, patch, now);
    if (!after) throw notFound(`BYOK key not found: ${id}`);
    await recordByokChange(tx, now, origin, before, after);
    return after;
  });
  return renderByok(updated);
}

export function deleteByok(deps: ByokDeps, origin: ChangeOrigin, id: string): Promise<{ deleted: true }> {
  const now = deps.clock();
  return deps.store.transaction(async (tx) => {
    const before = await findCredential(tx, id);
    if (!(await tx.byok.delete(id, now))) throw notFound(`BYOK key not found: ${id}`);
    await recordByokChange(tx, now, origin, before, null);
    return { deleted: true as const };
  });
}
