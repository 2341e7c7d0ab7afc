import { changesBetween } from "../../audit/changes";
import type { ChangeOrigin } from "../../audit/origin";
import { type AuditTables, recordChange } from "../../audit/record";
import type { Config } from "../../config";
import { type SecretBox, secretBoxOf } from "../../crypto/secret-box";
import { badRequest, conflict, notFound } from "../../errors";
import { checkConfig, mergeConfig } from "../../observability/config-check";
import type { DestinationSender, DestinationType, SenderRegistry } from "../../observability/contract";
import { destinationWith } from "../../observability/destination-reader";
import { openConfig, sealConfig } from "../../observability/sealed-config";
import type { HostLookup } from "../../outbound/host-lookup";
import { urlPolicyOf } from "../../outbound/policy";
import type { DestinationPatch, DestinationRecord, Store, WorkspaceRecord } from "../../store/store";
import { testConnection } from "./connection-test";
import { checkedFilterRules } from "./filter-rules";
import type { CreateDestinationInput, DestinationDataOut, ListDestinationsInput, UpdateDestinationInput } from "./model";
import { auditedDestination, normalizedRegions, renderDestination } from "./render";

/** OpenRouter's limit: at most 5 destinations of one type in a workspace. */
export const MAX_DESTINATIONS_PER_TYPE = 5;

export type ObservabilityDeps = {
  store: Store;
  clock: () => number;
  config: Pick<Config, "security" | "secretKey" | "databasePath">;
  secrets?: SecretBox;
  lookup?: HostLookup;
  observability: { senders: SenderRegistry };
};

function senderOf(deps: ObservabilityDeps, type: DestinationType): DestinationSender {
  try {
    return deps.observability.senders(type);
  } catch {
    throw badRequest(`Invalid field 'type': this gateway cannot send to '${type}' destinations`, { field: "type" });
  }
}

async function workspaceFor(store: Store, ref: string | undefined, where: string): Promise<WorkspaceRecord> {
  const ws = ref === undefined ? await store.workspaces.getDefault() : await store.workspaces.find(ref);
  if (!ws)
    throw badRequest(ref === undefined ? "No default workspace exists; pass workspace_id" : `Invalid ${where} 'workspace_id': no workspace '${ref}'`, {
      field: "workspace_id",
    });
  return ws;
}

/** A live destination; with `workspaceRef`, only one of that workspace. Anything else is the same 404. */
async function foundDestination(store: Store, id: string, workspaceRef: string | undefined): Promise<DestinationRecord> {
  const record = await store.destinations.get(id);
  const scope = record && workspaceRef !== undefined ? await store.workspaces.find(workspaceRef) : undefined;
  if (!record || (workspaceRef !== undefined && scope?.id !== record.workspaceId)) throw notFound(`Observability destination not found: ${id}`);
  return record;
}

/** Records a destination's change in the transaction `tx` that makes it (null `before`: created; null `after`: deleted). */
function recordDestinationChange(tx: AuditTables, now: number, origin: ChangeOrigin, before: DestinationRecord | null, after: DestinationRecord | null) {
  const d = (after ?? before)!;
  return recordChange(tx, now, origin, {
    action: !before ? "destination.create" : !after ? "destination.delete" : "destination.update",
    target: { type: "destination", id: d.id },
    workspaceId: d.workspaceId,
    changes: changesBetween(before && auditedDestination(before), after && auditedDestination(after), ["sealed_config"]),
  });
}

const fullOfType = (type: string) =>
  conflict(`The workspace already has ${MAX_DESTINATIONS_PER_TYPE} '${type}' destinations, the most it may have; delete one first`, {
    field: "type",
    limit: MAX_DESTINATIONS_PER_TYPE,
  });

export async function listDestinations(deps: ObservabilityDeps, query: ListDestinationsInput): Promise<{ data: DestinationDataOut[]; total_count: number }> {
  const ws = await workspaceFor(deps.store, query.workspace_id, "query parameter");
  const page = await deps.store.destinations.list(ws.id, query.offset ?? 0, query.limit ?? 50);
  return { data: page.map(renderDestination), total_count: await deps.store.destinations.count(ws.id) };
}

/** A destination a create would save, not yet tested or stored: its sender, workspace and settings, and its config checked and in clear. */
async function newDestination(deps: ObservabilityDeps, body: CreateDestinationInput) {
  const sender = senderOf(deps, body.type);
  const ws = await workspaceFor(deps.store, body.workspace_id, "field");
  const filterRules = checkedFilterRules(body.filter_rules ?? null);
  const open = await checkConfig(body.type, sender.configKeys, body.config, urlPolicyOf(deps));
  const now = deps.clock();
  const settings = {
    id: crypto.randomUUID(),
    workspaceId: ws.id,
    type: body.type,
    name: body.name,
    enabled: body.enabled ?? true,
    privacyMode: body.privacy_mode ?? false,
    samplingRate: body.sampling_rate ?? 1,
    regions: normalizedRegions(body.regions ?? ["global"]),
    apiKeyHashes: body.api_key_hashes ?? null,
    filterRules,
    broadcastGenerationCost: body.broadcast_generation_cost ?? false,
    broadcastGenerationIdentity: body.broadcast_generation_identity ?? false,
    broadcastGenerationRequestContext: body.broadcast_generation_request_context ?? false,
    createdAt: now,
    updatedAt: now,
  };
  return { sender, ws, settings, open };
}

export async function createDestination(
  deps: ObservabilityDeps,
  origin: ChangeOrigin,
  body: CreateDestinationInput,
  skipTest: boolean,
): Promise<DestinationDataOut> {
  const { sender, ws, settings, open } = await newDestination(deps, body);
  // before the test, so a full workspace is told so without a request to the destination
  if ((await deps.store.destinations.countOfType(ws.id, body.type)) >= MAX_DESTINATIONS_PER_TYPE) throw fullOfType(body.type);
  if (!skipTest) await testConnection(deps, sender, destinationWith(settings, open));
  const record: DestinationRecord = { ...settings, ...(await sealConfig(sender.configKeys, open, secretBoxOf(deps))) };
  // counted again under the write lock: two creations at once never make a sixth
  const created = await deps.store.transaction(async (tx) => {
    if ((await tx.destinations.countOfType(ws.id, body.type)) >= MAX_DESTINATIONS_PER_TYPE) throw fullOfType(body.type);
    const stored = await tx.destinations.create(record);
    await recordDestinationChange(tx, deps.clock(), origin, null, stored);
    return stored;
  });
  return renderDestination(created);
}

/**
 * The connection test of a destination that is not saved (the console's "Test connection"):
 * the body is checked as a create checks it and the same probe runs; nothing is stored. A failed
 * test is the create's 400.
 */
export async function testNewDestination(deps: ObservabilityDeps, body: CreateDestinationInput): Promise<{ ok: true }> {
  const { sender, settings, open } = await newDestination(deps, body);
  await testConnection(deps, sender, destinationWith(settings, open));
  return { ok: true };
}

export async function getDestination(deps: ObservabilityDeps, id: string, workspaceRef?: string): Promise<DestinationDataOut> {
  return renderDestination(await foundDestination(deps.store, id, workspaceRef));
}

function settingsPatch(body: UpdateDestinationInput): DestinationPatch {
  const patch: DestinationPatch = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.enabled !== undefined) patch.enabled = body.enabled;
  if (body.privacy_mode !== undefined) patch.privacyMode = body.privacy_mode;
  if (body.sampling_rate !== undefined) patch.samplingRate = body.sampling_rate;
  if (body.regions !== undefined) patch.regions = normalizedRegions(body.regions);
  if (body.api_key_hashes !== undefined) patch.apiKeyHashes = body.api_key_hashes;
  if (body.filter_rules !== undefined) patch.filterRules = checkedFilterRules(body.filter_rules);
  if (body.broadcast_generation_cost !== undefined) patch.broadcastGenerationCost = body.broadcast_generation_cost;
  if (body.broadcast_generation_identity !== undefined) patch.broadcastGenerationIdentity = body.broadcast_generation_identity;
  if (body.broadcast_generation_request_context !== undefined) patch.broadcastGenerationRequestContext = body.broadcast_generation_request_context;
  return patch;
}

/** An update's config merged over the stored one and checked; both in clear. */
async function editedConfig(deps: ObservabilityDeps, sender: DestinationSender, current: DestinationRecord, config: Record<string, unknown>) {
  const stored = openConfig(current, secretBoxOf(deps));
  return { stored, open: await checkConfig(sender.type, sender.configKeys, mergeConfig(sender.configKeys, stored, config), urlPolicyOf(deps)) };
}

/**
 * Changes only the fields sent. A config is merged over the stored one (unset keys keep their
 * value, masked values are ignored) and, when that changes it, tested before it is saved.
 */
export async function updateDestination(
  deps: ObservabilityDeps,
  origin: ChangeOrigin,
  id: string,
  body: UpdateDestinationInput,
  opts: { skipTest: boolean; workspaceRef?: string },
): Promise<DestinationDataOut> {
  const current = await foundDestination(deps.store, id, opts.workspaceRef);
  const sender = senderOf(deps, current.type as DestinationType);
  const patch = settingsPatch(body);
  // a settings-only update opens no secret (it needs no master key)
  if (body.config !== undefined) {
    const { stored, open } = await editedConfig(deps, sender, current, body.config);
    if (!Bun.deepEquals(open, stored)) {
      if (!opts.skipTest) await testConnection(deps, sender, destinationWith({ ...current, ...patch }, open));
      Object.assign(patch, await sealConfig(sender.configKeys, open, secretBoxOf(deps)));
    }
  }
  const now = deps.clock();
  const updated = await deps.store.transaction(async (tx) => {
    const before = await tx.destinations.get(id);
    const after = await tx.destinations.update(id, patch, now);
    if (!before || !after) throw notFound(`Observability destination not found: ${id}`);
    await recordDestinationChange(tx, now, origin, before, after);
    return after;
  });
  return renderDestination(updated);
}

/**
 * The connection test of a stored destination as an update would leave it (the console's "Test
 * connection" while editing): the config merged as updateDestination merges it (a masked secret
 * keeps the stored one), tested even when unchanged; nothing is stored.
 */
export async function testEditedDestination(deps: ObservabilityDeps, id: string, body: UpdateDestinationInput, workspaceRef?: string): Promise<{ ok: true }> {
  const current = await foundDestination(deps.store, id, workspaceRef);
  const sender = senderOf(deps, current.type as DestinationType);
  const patch = settingsPatch(body);
  const { open } = await editedConfig(deps, sender, current, body.config ?? {});
  await testConnection(deps, sender, destinationWith({ ...current, ...patch }, open));
  return { ok: true };
}

export async function deleteDestination(deps: ObservabilityDeps, origin: ChangeOrigin, id: string, workspaceRef?: string): Promise<{ deleted: true }> {
  const current = await foundDestination(deps.store, id, workspaceRef);
  const now = deps.clock();
  return deps.store.transaction(async (tx) => {
    if (!(await tx.destinations.delete(id, now))) throw notFound(`Observability destination not found: ${id}`);
    await recordDestinationChange(tx, now, origin, current, null);
    return { deleted: true as const };
  });
}
