import { usdToNanos } from "../../billing/money";
import { badRequest, notFound } from "../../errors";
import { defaultGuardrailId, defaultGuardrailName } from "../../gateway/guardrails/default-guardrail";
import { asStoredRules, rulesOf } from "../../gateway/guardrails/rules";
import type { Principal } from "../../http/principal";
import type { GuardrailRecord, Store, WorkspaceRecord } from "../../store/store";
import { resolveWorkspace } from "../keys/service";
import type { CreateGuardrailInput, GuardrailDataOut, UpdateGuardrailInput } from "./model";
import { renderGuardrail, renderKeyAssignment, renderMemberAssignment } from "./render";
import { checkBudgetPair, patchedRules, patchOf, rulesOfBody } from "./validate";

/**
 * Guardrails (OpenRouter's 13 operations): CRUD and assignments, each one small service call so
 * that every administrative change can be audited where it is made.
 */
export type GuardrailDeps = { store: Store; clock: () => number };

type Page = { offset?: number; limit?: number };

/** Who assigned: the user behind the calling management key, when it has one. */
const assigner = (principal: Principal) => principal.key.creatorUserId;

/** The workspace whose default guardrail `id` is, if it is one (ids are derived, so this is a scan of the workspaces). */
async function workspaceOfDefault(store: Store, id: string): Promise<WorkspaceRecord | undefined> {
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
async function findGuardrail(store: Store, id: string): Promise<{ guardrail: GuardrailRecord; stored: boolean; workspace: WorkspaceRecord | null }> {
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

export async function createGuardrail(deps: GuardrailDeps, body: CreateGuardrailInput): Promise<GuardrailDataOut> {
  checkBudgetPair(body);
  const rules = rulesOfBody(body);
  const ws = await resolveWorkspace(deps.store, body.workspace_id, "workspace_id");
  const created = await deps.store.guardrails.create({
    id: crypto.randomUUID(),
    workspaceId: ws.id,
    name: body.name,
    description: body.description ?? null,
    rules: asStoredRules(patchedRules({}, rules)),
    limitNanos: body.limit_usd === undefined || body.limit_usd === null ? null : usdToNanos(body.limit_usd),
    resetInterval: body.reset_interval ?? null,
    includeByokInBudgets: body.include_byok_in_budgets ?? false,
    createdAt: deps.clock(),
    updatedAt: null,
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
export async function updateGuardrail(deps: GuardrailDeps, id: string, body: UpdateGuardrailInput): Promise<GuardrailDataOut> {
  const rules = rulesOfBody(body);
  const { guardrail, stored, workspace } = await findGuardrail(deps.store, id);
  const isDefault = workspace !== null && guardrail.id === defaultGuardrailId(workspace.id);
  if (isDefault && body.name !== undefined && body.name !== defaultGuardrailName(workspace))
    throw badRequest("Invalid field 'name': the name of a workspace's default guardrail is its workspace's and cannot change", { field: "name" });
  const columns = { ...patchOf(body), rules: asStoredRules(patchedRules(rulesOf(guardrail), rules)) };
  const now = deps.clock();
  const updated = stored
    ? await deps.store.guardrails.update(id, columns, now)
    : await deps.store.guardrails.create({ ...guardrail, ...columns, updatedAt: now });
  if (!updated) throw notFound(`Guardrail not found: ${id}`);
  return render(deps.store, updated);
}

export async function deleteGuardrail(deps: GuardrailDeps, id: string): Promise<{ deleted: true }> {
  if (!(await deps.store.guardrails.delete(id))) throw notFound(`Guardrail not found: ${id}`);
  return { deleted: true };
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

const assignment = (deps: GuardrailDeps, principal: Principal) => () => ({ id: crypto.randomUUID(), assignedBy: assigner(principal), createdAt: deps.clock() });

export async function assignKeys(deps: GuardrailDeps, principal: Principal, id: string, keyHashes: string[]) {
  const guardrail = await assignable(deps.store, id);
  await requireKnown(keyHashes, "key_hashes", async (h) => (await deps.store.keys.get(h)) !== undefined);
  return { assigned_count: await deps.store.guardrails.assignKeys(guardrail.id, keyHashes, assignment(deps, principal)) };
}

export async function unassignKeys(deps: GuardrailDeps, id: string, keyHashes: string[]) {
  const { guardrail } = await findGuardrail(deps.store, id);
  return { unassigned_count: await deps.store.guardrails.unassignKeys(guardrail.id, keyHashes) };
}

export async function assignMembers(deps: GuardrailDeps, principal: Principal, id: string, userIds: string[]) {
  const guardrail = await assignable(deps.store, id);
  await requireKnown(userIds, "member_user_ids", async (u) => (await deps.store.users.get(u)) !== undefined);
  return { assigned_count: await deps.store.guardrails.assignMembers(guardrail, userIds, assignment(deps, principal)) };
}

export async function unassignMembers(deps: GuardrailDeps, id: string, userIds: string[]) {
  const { guardrail } = await findGuardrail(deps.store, id);
  return { unassigned_count: await deps.store.guardrails.unassignMembers(guardrail.id, userIds) };
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
