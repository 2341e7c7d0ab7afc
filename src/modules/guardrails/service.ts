import { changesBetween } from "../../audit/changes";
import type { ChangeOrigin } from "../../audit/origin";
import { recordChange } from "../../audit/record";
import { usdToNanos } from "../../billing/money";
import { badRequest, notFound } from "../../errors";
import { defaultGuardrailId, defaultGuardrailName } from "../../gateway/guardrails/default-guardrail";
import { asStoredRules, rulesOf } from "../../gateway/guardrails/rules";
import type { GuardrailRecord, Store, StoreTables, WorkspaceRecord } from "../../store/store";
import { resolveWorkspace } from "../keys/service";
import type { CreateGuardrailInput, GuardrailDataOut, UpdateGuardrailInput } from "./model";
import { auditedGuardrail, renderGuardrail, renderKeyAssignment, renderMemberAssignment } from "./render";
import { checkBudgetPair, patchedRules, patchOf, rulesOfBody } from "./validate";

/**
 * Guardrails (OpenRouter's 13 operations): CRUD and assignments, each one small service call so
 * that every administrative change can be audited where it is made.
 */
export type GuardrailDeps = { store: Store; clock: () => number };

type Page = { offset?: number; limit?: number };

/** The workspace whose default guardrail `id` is, if it is one (ids are derived, so this is a scan of the workspaces). */
async function workspaceOfDefault(store: Pick<StoreTables, "workspaces">, id: string): Promise<WorkspaceRecord | undefined> {
  const count = await store.workspaces.count();
  const all = await store.workspaces.list(0, count);
  return all.find((ws) => defaultGuardrailId(ws.id) === id);
}

/** A workspace's default guardrail before a PATCH stores it: no rules, no budget. */
const unstoredDefault = (ws: WorkspaceRecord): GuardrailRecord => ({
  id: defaultGuardrailId(ws.id),
  workspaceId: ws.id,
  name: defaultGuardrailName(ws),
  description: null,
  rules: {},
  limitNanos: null,
  resetInterval: null,
  includeByokInBudgets: false,
  createdAt: ws.createdAt,
  updatedAt: null,
});

/** A stored guardrail, or a workspace's default one not stored yet; 404 otherwise. */
async function findGuardrail(
  store: Pick<StoreTables, "guardrails" | "workspaces">,
  id: string,
): Promise<{ guardrail: GuardrailRecord; stored: boolean; workspace: WorkspaceRecord | null }> {
  const stored = await store.guardrails.get(id);
  if (stored) return { guardrail: stored, stored: true, workspace: (await store.workspaces.find(stored.workspaceId)) ?? null };
  const ws = await workspaceOfDefault(store, id);
  if (!ws) throw notFound(`Guardrail not found: ${id}`);
  return { guardrail: unstoredDefault(ws), stored: false, workspace: ws };
}

async function render(store: Store, g: GuardrailRecord): Promise<GuardrailDataOut> {
  return renderGuardrail(g, (await store.workspaces.find(g.workspaceId)) ?? null);
}

export async function listGuardrails(deps: GuardrailDeps, query: Page & { workspace_id?: string }) {
  const ws = await resolveWorkspace(deps.store, query.workspace_id, "workspace_id");
  const page = await deps.store.guardrails.list(ws.id, query.offset ?? 0, query.limit ?? 50);
  return { data: page.map((g) => renderGuardrail(g, ws)), total_count: await deps.store.guardrails.count(ws.id) };
}

export async function createGuardrail(deps: GuardrailDeps, origin: ChangeOrigin, body: CreateGuardrailInput): Promise<GuardrailDataOut> {
  checkBudgetPair(body);
  const rules = rulesOfBody(body);
  const ws = await resolveWorkspace(deps.store, body.workspace_id, "workspace_id");
  const now = deps.clock();
  const created = await deps.store.transaction(async (tx) => {
    const made = await tx.guardrails.create({
      id: crypto.randomUUID(),
      workspaceId: ws.id,
      name: body.name,
      description: body.description ?? null,
      rules: asStoredRules(patchedRules({}, rules)),
      limitNanos: body.limit_usd === undefined || body.limit_usd === null ? null : usdToNanos(body.limit_usd),
      resetInterval: body.reset_interval ?? null,
      includeByokInBudgets: body.include_byok_in_budgets ?? false,
      createdAt: now,
      updatedAt: null,
    });
    await recordChange(tx, now, origin, {
      action: "guardrail.create",
      target: { type: "guardrail", id: made.id },
      workspaceId: ws.id,
      changes: changesBetween(null, auditedGuardrail(made, ws)),
    });
    return made;
  });
  return renderGuardrail(created, ws);
}

export async function getGuardrail(deps: GuardrailDeps, id: string): Promise<GuardrailDataOut> {
  const { guardrail, workspace } = await findGuardrail(deps.store, id);
  return renderGuardrail(guardrail, workspace);
}

/**
 * PATCH: omitted fields stay, null clears, a list replaces the whole list. The workspace's
 * default guardrail is stored by its first PATCH; its name is its workspace's and cannot change.
 */
export async function updateGuardrail(deps: GuardrailDeps, origin: ChangeOrigin, id: string, body: UpdateGuardrailInput): Promise<GuardrailDataOut> {
  const rules = rulesOfBody(body);
  const now = deps.clock();
  const updated = await deps.store.transaction(async (tx) => {
    const { guardrail, stored, workspace } = await findGuardrail(tx, id);
    const isDefault = workspace !== null && guardrail.id === defaultGuardrailId(workspace.id);
    if (isDefault && body.name !== undefined && body.name !== defaultGuardrailName(workspace))
      throw badRequest("Invalid field 'name': the name of a workspace's default guardrail is its workspace's and cannot change", { field: "name" });
    const columns = { ...patchOf(body), rules: asStoredRules(patchedRules(rulesOf(guardrail), rules)) };
    const after = stored ? await tx.guardrails.update(id, columns, now) : await tx.guardrails.create({ ...guardrail, ...columns, updatedAt: now });
    if (!after) throw notFound(`Guardrail not found: ${id}`);
    await recordChange(tx, now, origin, {
      action: "guardrail.update",
      target: { type: "guardrail", id: after.id },
      workspaceId: after.workspaceId,
      changes: changesBetween(auditedGuardrail(guardrail, workspace), auditedGuardrail(after, workspace)),
    });
    return after;
  });
  return render(deps.store, updated);
}

export async function deleteGuardrail(deps: GuardrailDeps, origin: ChangeOrigin, id: string): Promise<{ deleted: true }> {
  const now = deps.clock();
  return deps.store.transaction(async (tx) => {
    const before = await tx.guardrails.get(id);
    if (!before || !(await tx.guardrails.delete(id))) throw notFound(`Guardrail not found: ${id}`);
    const workspace = (await tx.workspaces.find(before.workspaceId)) ?? null;
    await recordChange(tx, now, origin, {
      action: "guardrail.delete",
      target: { type: "guardrail", id },
      workspaceId: before.workspaceId,
      changes: changesBetween(auditedGuardrail(before, workspace), null),
    });
    return { deleted: true as const };
  });
}

/** A stored guardrail that takes assignments: a workspace's default applies to all its keys and takes none. */
async function assignable(store: Store, id: string): Promise<GuardrailRecord> {
  const { guardrail, workspace } = await findGuardrail(store, id);
  if (workspace !== null && guardrail.id === defaultGuardrailId(workspace.id))
    throw badRequest("A workspace's default guardrail applies to every key of its workspace; it is not assigned to keys or members", { field: "id" });
  return guardrail;
}

/** Unknown keys or users: 400 naming the first, and nothing assigned. */
async function requireKnown(ids: readonly string[], field: string, exists: (id: string) => Promise<boolean>): Promise<void> {
  for (const [i, id] of ids.entries())
    if (!(await exists(id))) throw badRequest(`Invalid field '${field}[${i}]': no such ${field === "key_hashes" ? "API key" : "user"} '${id}'`, { field });
}

/** `assignedBy`: who assigned (the user behind a management key, when it has one; the signed-in user of the console) */
const assignment = (deps: GuardrailDeps, assignedBy: string | null) => () => ({ id: crypto.randomUUID(), assignedBy, createdAt: deps.clock() });

/** An (un)assignment's event: which keys or members it names, on the guardrail it names. */
function recordAssignment(
  tx: StoreTables,
  deps: GuardrailDeps,
  origin: ChangeOrigin,
  guardrail: GuardrailRecord,
  action: "guardrail.assign" | "guardrail.unassign",
  field: "key_hashes" | "member_user_ids",
  ids: readonly string[],
) {
  return recordChange(tx, deps.clock(), origin, {
    action,
    target: { type: "guardrail", id: guardrail.id },
    workspaceId: guardrail.workspaceId,
    changes: action === "guardrail.assign" ? { [field]: { from: null, to: [...ids] } } : { [field]: { from: [...ids], to: null } },
  });
}

export async function assignKeys(deps: GuardrailDeps, origin: ChangeOrigin, assignedBy: string | null, id: string, keyHashes: string[]) {
  const guardrail = await assignable(deps.store, id);
  await requireKnown(keyHashes, "key_hashes", async (h) => (await deps.store.keys.get(h)) !== undefined);
  return deps.store.transaction(async (tx) => {
    const assigned = await tx.guardrails.assignKeys(guardrail.id, keyHashes, assignment(deps, assignedBy));
    await recordAssignment(tx, deps, origin, guardrail, "guardrail.assign", "key_hashes", keyHashes);
    return { assigned_count: assigned };
  });
}

export async function unassignKeys(deps: GuardrailDeps, origin: ChangeOrigin, id: string, keyHashes: string[]) {
  const { guardrail } = await findGuardrail(deps.store, id);
  return deps.store.transaction(async (tx) => {
    const unassigned = await tx.guardrails.unassignKeys(guardrail.id, keyHashes);
    await recordAssignment(tx, deps, origin, guardrail, "guardrail.unassign", "key_hashes", keyHashes);
    return { unassigned_count: unassigned };
  });
}

export async function assignMembers(deps: GuardrailDeps, origin: ChangeOrigin, assignedBy: string | null, id: string, userIds: string[]) {
  const guardrail = await assignable(deps.store, id);
  await requireKnown(userIds, "member_user_ids", async (u) => (await deps.store.users.get(u)) !== undefined);
  return deps.store.transaction(async (tx) => {
    const assigned = await tx.guardrails.assignMembers(guardrail, userIds, assignment(deps, assignedBy));
    await recordAssignment(tx, deps, origin, guardrail, "guardrail.assign", "member_user_ids", userIds);
    return { assigned_count: assigned };
  });
}

export async function unassignMembers(deps: GuardrailDeps, origin: ChangeOrigin, id: string, userIds: string[]) {
  const { guardrail } = await findGuardrail(deps.store, id);
  return deps.store.transaction(async (tx) => {
    const unassigned = await tx.guardrails.unassignMembers(guardrail.id, userIds);
    await recordAssignment(tx, deps, origin, guardrail, "guardrail.unassign", "member_user_ids", userIds);
    return { unassigned_count: unassigned };
  });
}

/** One guardrail's key assignments (404 for an unknown one), or every guardrail's (`id` null). */
export async function listKeyAssignments(deps: GuardrailDeps, id: string | null, page: Page) {
  const guardrailId = id === null ? null : (await findGuardrail(deps.store, id)).guardrail.id;
  const rows = await deps.store.guardrails.keyAssignments(guardrailId, page.offset ?? 0, page.limit ?? 50);
  return { data: rows.map(renderKeyAssignment), total_count: await deps.store.guardrails.countKeyAssignments(guardrailId) };
}

export async function listMemberAssignments(deps: GuardrailDeps, id: string | null, page: Page) {
  const guardrailId = id === null ? null : (await findGuardrail(deps.store, id)).guardrail.id;
  const rows = await deps.store.guardrails.memberAssignments(guardrailId, page.offset ?? 0, page.limit ?? 50);
  // MemberAssignment.organization_id: the organization GET /key names
  const organizationId = (await deps.store.meta.get("organization_id")) ?? "";
  return { data: rows.map((a) => renderMemberAssignment(a, organizationId)), total_count: await deps.store.guardrails.countMemberAssignments(guardrailId) };
}
