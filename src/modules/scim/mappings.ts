import type { ChangeOrigin } from "../../audit/origin";
import { recordChange } from "../../audit/record";

import { badRequest, conflict, notFound } from "../../errors";
import type { Logger } from "../../logger";
import type { ScimGroupMappingRecord, ScimGroupRecord, ScimSyncJobRecord, Store, StoreTables } from "../../store/store";
import { isoOrNull, isoTime } from "../../time";
import type { ScimGroupMappingOut, ScimGroupOut, ScimSyncJobOut } from "./model";
import { reconcileUsers } from "./reconcile";

/**
 * OpenRouter's SCIM management operations (`@openrouter/sdk` `scim.*`): the provisioned groups,
 * their mappings to workspaces, and sync jobs that re-apply every mapping.
 */
export type ScimMappingDeps = { store: Store; clock: () => number; logger: Logger };

type Page = { offset?: number; limit?: number };
type Role = ScimGroupMappingRecord["role"];

const organizationOf = async (store: Pick<StoreTables, "meta">) => (await store.meta.get("organization_id")) ?? "";

const renderGroup = (g: ScimGroupRecord, organizationId: string): ScimGroupOut => ({
  id: g.id,
  display_name: g.displayName,
  external_id: g.externalId,
  organization_id: organizationId,
  created_at: isoTime(g.createdAt),
  updated_at: isoTime(g.updatedAt),
});

const renderMapping = (m: ScimGroupMappingRecord, organizationId: string): ScimGroupMappingOut => ({
  id: m.id,
  scim_group_id: m.groupId,
  workspace_id: m.workspaceId,
  role: m.role,
  organization_id: organizationId,
  created_at: isoTime(m.createdAt),
  updated_at: isoTime(m.updatedAt),
});

const renderJob = (j: ScimSyncJobRecord): ScimSyncJobOut => ({
  id: j.id,
  status: j.status,
  synced_groups: j.syncedGroups,
  deleted_groups: j.deletedGroups,
  error_message: j.errorMessage,
  created_at: isoTime(j.createdAt),
  started_at: isoOrNull(j.startedAt),
  finished_at: isoOrNull(j.finishedAt),
});

const paged = <T>(all: T[], page: Page) => all.slice(page.offset ?? 0, (page.offset ?? 0) + (page.limit ?? 50));

export async function listGroups(deps: ScimMappingDeps, page: Page) {
  const all = await deps.store.scimGroups.list();
  const organizationId = await organizationOf(deps.store);
  return { data: paged(all, page).map((g) => renderGroup(g, organizationId)), total_count: all.length };
}

export async function listMappings(deps: ScimMappingDeps, page: Page) {
  const all = await deps.store.scimMappings.list();
  const organizationId = await organizationOf(deps.store);
  return { data: paged(all, page).map((m) => renderMapping(m, organizationId)), total_count: all.length };
}

async function existingMapping(tx: Pick<StoreTables, "scimMappings">, id: string): Promise<ScimGroupMappingRecord> {
  const mapping = await tx.scimMappings.get(id);
  if (!mapping) throw notFound(`SCIM group mapping not found: ${id}`);
  return mapping;
}

export async function getMapping(deps: ScimMappingDeps, id: string): Promise<{ data: ScimGroupMappingOut }> {
  return { data: renderMapping(await existingMapping(deps.store, id), await organizationOf(deps.store)) };
}

const audited = (m: ScimGroupMappingRecord | null) => (m ? { scim_group_id: m.groupId, workspace_id: m.workspaceId, role: m.role } : null);

/** A new mapping: the group's current members join the workspace with its role, in the same transaction. */
export function createMapping(
  deps: ScimMappingDeps,
  origin: ChangeOrigin,
  body: { scim_group_id: string; workspace_id: string; role: Role },
): Promise<{ data: ScimGroupMappingOut }> {
  const now = deps.clock();
  return deps.store.transaction(async (tx) => {
    if (!(await tx.scimGroups.get(body.scim_group_id))) throw notFound(`SCIM group not found: scim_group_id '${body.scim_group_id}'`);
    const workspace = await tx.workspaces.find(body.workspace_id);
    if (!workspace) throw notFound(`Workspace not found: workspace_id '${body.workspace_id}'`);
    if (await tx.scimMappings.find(body.scim_group_id, workspace.id))
      throw conflict(`SCIM group '${body.scim_group_id}' is already mapped to workspace '${body.workspace_id}'`);
    const mapping = await tx.scimMappings.create({
      id: crypto.randomUUID(),
      groupId: body.scim_group_id,
      workspaceId: workspace.id,
      role: body.role,
      createdAt: now,
      updatedAt: now,
    });
    await recordChange(tx, now, origin, {
      action: "scim_mapping.create",
      target: { type: "scim_mapping", id: mapping.id },
      workspaceId: workspace.id,
      changes: { ...changesOf(null, mapping) },
    });
    await reconcileUsers(tx, now, origin, await tx.scimGroups.members(mapping.groupId));
    return { data: renderMapping(mapping, await organizationOf(tx)) };
  });
}

function changesOf(before: ScimGroupMappingRecord | null, after: ScimGroupMappingRecord | null) {
  const [from, to] = [audited(before), audited(after)];
  const fields = Object.keys(from ?? to ?? {}) as Array<keyof NonNullable<typeof from>>;
  return Object.fromEntries(fields.filter((f) => from?.[f] !== to?.[f]).map((f) => [f, { from: from?.[f] ?? null, to: to?.[f] ?? null }]));
}

/** A new role: the memberships the mapping made take it. */
export function updateMapping(deps: ScimMappingDeps, origin: ChangeOrigin, id: string, role: Role): Promise<{ data: ScimGroupMappingOut }> {
  const now = deps.clock();
  return deps.store.transaction(async (tx) => {
    const before = await existingMapping(tx, id);
    const after = (await tx.scimMappings.update(id, { role, updatedAt: now })) ?? before;
    await recordChange(tx, now, origin, {
      action: "scim_mapping.update",
      target: { type: "scim_mapping", id },
      workspaceId: after.workspaceId,
      changes: changesOf(before, after),
    });
    await reconcileUsers(tx, now, origin, await tx.scimGroups.members(after.groupId));
    return { data: renderMapping(after, await organizationOf(tx)) };
  });
}

/**
 * Deletes a mapping. keep_members false: the memberships it made leave (unless another mapping
 * still wants them); true: they stay, and from then on count as made by hand.
 */
export function deleteMapping(deps: ScimMappingDeps, origin: ChangeOrigin, id: string, keepMembers: string | undefined): Promise<{ deleted: true }> {
  if (keepMembers !== "true" && keepMembers !== "false") throw badRequest("Invalid field 'keep_members': required, true or false", { field: "keep_members" });
  const now = deps.clock();
  return deps.store.transaction(async (tx) => {
    const mapping = await existingMapping(tx, id);
    await tx.scimMappings.delete(id);
    await recordChange(tx, now, origin, {
      action: "scim_mapping.delete",
      target: { type: "scim_mapping", id },
      workspaceId: mapping.workspaceId,
      changes: { ...changesOf(mapping, null), keep_members: { from: null, to: keepMembers === "true" } },
    });
    const members = await tx.scimGroups.members(mapping.groupId);
    if (keepMembers === "true") await releaseMembers(tx, mapping, members);
    else await reconcileUsers(tx, now, origin, members);
    return { deleted: true as const };
  });
}

/** keep_members: the mapping's memberships become made by hand, except where another mapping of the user's groups still makes them. */
async function releaseMembers(tx: StoreTables, deleted: ScimGroupMappingRecord, members: readonly string[]): Promise<void> {
  const others = (await tx.scimMappings.list()).filter((m) => m.workspaceId === deleted.workspaceId);
  for (const userId of members) {
    const groups = new Set((await tx.scimGroups.groupsOf(userId)).map((g) => g.id));
    if (!others.some((m) => groups.has(m.groupId))) await tx.scimMappings.unmarkManaged(deleted.workspaceId, userId);
  }
}

/** Every user a mapping could concern: the members of every group (who left a group was reconciled when they left). */
async function everyConcernedUser(tx: StoreTables): Promise<{ users: Set<string>; groups: number }> {
  const groups = await tx.scimGroups.list();
  const users = new Set<string>();
  for (const g of groups) for (const id of await tx.scimGroups.members(g.id)) users.add(id);
  return { users, groups: groups.length };
}

/**
 * A sync job: queued, then run at once in the background (one transaction), which re-applies
 * every mapping to the current group memberships; succeeded or failed with the reason.
 */
export async function createSyncJob(deps: ScimMappingDeps, origin: ChangeOrigin): Promise<{ data: ScimSyncJobOut }> {
  const job = await deps.store.scimMappings.createJob({
    id: crypto.randomUUID(),
    status: "queued",
    syncedGroups: null,
    deletedGroups: null,
    errorMessage: null,
    createdAt: deps.clock(),
    startedAt: null,
    finishedAt: null,
  });
  setTimeout(() => void runSyncJob(deps, origin, job.id), 0);
  return { data: renderJob(job) };
}

async function runSyncJob(deps: ScimMappingDeps, origin: ChangeOrigin, id: string): Promise<void> {
  try {
    await deps.store.scimMappings.updateJob(id, { status: "running", startedAt: deps.clock() });
    const synced = await deps.store.transaction(async (tx) => {
      const { users, groups } = await everyConcernedUser(tx);
      await reconcileUsers(tx, deps.clock(), origin, users);
      return groups;
    });
    await deps.store.scimMappings.updateJob(id, { status: "succeeded", syncedGroups: synced, deletedGroups: 0, finishedAt: deps.clock() });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    deps.logger.error("SCIM sync job failed", { job: id, error: message });
    await deps.store.scimMappings.updateJob(id, { status: "failed", errorMessage: message, finishedAt: deps.clock() }).catch(() => undefined);
  }
}

export async function getSyncJob(deps: ScimMappingDeps, id: string): Promise<{ data: ScimSyncJobOut }> {
  const job = await deps.store.scimMappings.getJob(id);
  if (!job) throw notFound(`SCIM sync job not found: ${id}`);
  return { data: renderJob(job) };
}
