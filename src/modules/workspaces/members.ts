import { changesBetween } from "../../audit/changes";
import type { ChangeOrigin } from "../../audit/origin";
import { type AuditTables, recordChange } from "../../audit/record";
import { badRequest, conflict } from "../../errors";
import type { Store, UserRecord, WorkspaceMemberRecord, WorkspaceRecord } from "../../store/store";
import { isoTime } from "../../time";
import type { MemberDataOut } from "./model";
import { findWorkspace, type WorkspaceDeps } from "./service";

/** A workspace role follows the organization role; the owner administers every workspace. */
const workspaceRole = (user: UserRecord): "admin" | "member" => (user.role === "member" ? "member" : "admin");

export function renderMember(m: WorkspaceMemberRecord): MemberDataOut {
  return { id: m.id, workspace_id: m.workspaceId, user_id: m.userId, role: m.role, created_at: isoTime(m.createdAt) };
}

/** Every organization user belongs to the default workspace, with or without a membership row. */
async function implicitMember(store: Store, ws: WorkspaceRecord, user: UserRecord): Promise<WorkspaceMemberRecord> {
  const row = await store.members.get(ws.id, user.id);
  if (row) return row;
  const digest = new Bun.CryptoHasher("sha256").update(`${ws.id}\u0000${user.id}`).digest("hex");
  const id = `${digest.slice(0, 8)}-${digest.slice(8, 12)}-${digest.slice(12, 16)}-${digest.slice(16, 20)}-${digest.slice(20, 32)}`;
  return { id, workspaceId: ws.id, userId: user.id, role: workspaceRole(user), createdAt: user.createdAt };
}

export async function listMembers(deps: WorkspaceDeps, ref: string, query: { offset?: number; limit?: number }) {
  const ws = await findWorkspace(deps.store, ref);
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 50;
  if (ws.isDefault) {
    const users = await deps.store.users.list(offset, limit);
    const members = await Promise.all(users.map((u) => implicitMember(deps.store, ws, u)));
    return { data: members.map(renderMember), total_count: await deps.store.users.count() };
  }
  const members = await deps.store.members.list(ws.id, offset, limit);
  return { data: members.map(renderMember), total_count: await deps.store.members.count(ws.id) };
}

const unique = (ids: string[]) => [...new Set(ids)];

/**
 * Records a membership's change in the transaction `tx` that makes it: added (no `before`),
 * its role changed, or removed (no `after`); nothing when nothing changed.
 */
export async function recordMemberChange(
  tx: AuditTables,
  now: number,
  origin: ChangeOrigin,
  before: WorkspaceMemberRecord | undefined,
  after: WorkspaceMemberRecord | undefined,
): Promise<void> {
  const member = (after ?? before)!;
  const shown = (m: WorkspaceMemberRecord | undefined) => (m ? { user_id: m.userId, role: m.role } : null);
  const changes = changesBetween(shown(before), shown(after));
  if (Object.keys(changes).length === 0) return;
  const action = !before ? "member.add" : !after ? "member.remove" : "member.update";
  await recordChange(tx, now, origin, { action, target: { type: "member", id: member.userId }, workspaceId: member.workspaceId, changes });
}

export function addMembers(deps: WorkspaceDeps, origin: ChangeOrigin, ref: string, userIds: string[]) {
  return deps.store.transaction(async (tx) => {
    const ws = await findWorkspace(tx, ref);
    const ids = unique(userIds);
    const users = await Promise.all(ids.map((id) => tx.users.get(id)));
    const unknown = ids.filter((_, i) => users[i] === undefined);
    if (unknown.length) throw badRequest(`Unknown user id(s): ${unknown.join(", ")}`, { field: "user_ids", unknown_user_ids: unknown });
    const now = deps.clock();
    const before = await Promise.all(ids.map((id) => tx.members.get(ws.id, id)));
    const stored = await tx.members.upsert(
      (users as UserRecord[]).map((u) => ({ id: crypto.randomUUID(), workspaceId: ws.id, userId: u.id, role: workspaceRole(u), createdAt: now })),
    );
    for (const member of stored) await recordMemberChange(tx, now, origin, before[ids.indexOf(member.userId)], member);
    return { added_count: stored.length, data: stored.map(renderMember) };
  });
}

export function removeMembers(deps: WorkspaceDeps, origin: ChangeOrigin, ref: string, userIds: string[]) {
  return deps.store.transaction(async (tx) => {
    const ws = await findWorkspace(tx, ref);
    const ids = unique(userIds);
    const blocked = await tx.workspaces.usersWithActiveKeys(ws.id, ids, deps.clock());
    if (blocked.length) throw conflict(`Cannot remove member(s) with active API keys in this workspace: ${blocked.join(", ")}`, { user_ids: blocked });
    if (ws.isDefault) throw badRequest("Every organization user belongs to the default workspace; members cannot be removed from it", { field: "user_ids" });
    const now = deps.clock();
    const before = await Promise.all(ids.map((id) => tx.members.get(ws.id, id)));
    const removed = await tx.members.remove(ws.id, ids);
    for (const member of before) if (member) await recordMemberChange(tx, now, origin, member, undefined);
    return { removed_count: removed };
  });
}
