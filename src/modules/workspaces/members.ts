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
function implicitMember(store: Store, ws: WorkspaceRecord, user: UserRecord): WorkspaceMemberRecord {
  const row = store.members.get(ws.id, user.id);
  if (row) return row;
  const digest = new Bun.CryptoHasher("sha256").update(`${ws.id}\u0000${user.id}`).digest("hex");
  const id = `${digest.slice(0, 8)}-${digest.slice(8, 12)}-${digest.slice(12, 16)}-${digest.slice(16, 20)}-${digest.slice(20, 32)}`;
  return { id, workspaceId: ws.id, userId: user.id, role: workspaceRole(user), createdAt: user.createdAt };
}

export function listMembers(deps: WorkspaceDeps, ref: string, query: { offset?: number; limit?: number }) {
  const ws = findWorkspace(deps.store, ref);
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 50;
  if (ws.isDefault) {
    const users = deps.store.users.list(offset, limit);
    return { data: users.map((u) => renderMember(implicitMember(deps.store, ws, u))), total_count: deps.store.users.count() };
  }
  return { data: deps.store.members.list(ws.id, offset, limit).map(renderMember), total_count: deps.store.members.count(ws.id) };
}

const unique = (ids: string[]) => [...new Set(ids)];

export function addMembers(deps: WorkspaceDeps, ref: string, userIds: string[]) {
  return deps.store.transaction(() => {
    const ws = findWorkspace(deps.store, ref);
    const ids = unique(userIds);
    const users = ids.map((id) => deps.store.users.get(id));
    const unknown = ids.filter((_, i) => users[i] === undefined);
    if (unknown.length) throw badRequest(`Unknown user id(s): ${unknown.join(", ")}`, { field: "user_ids", unknown_user_ids: unknown });
    const now = deps.clock();
    const stored = deps.store.members.upsert(
      (users as UserRecord[]).map((u) => ({ id: crypto.randomUUID(), workspaceId: ws.id, userId: u.id, role: workspaceRole(u), createdAt: now })),
    );
    return { added_count: stored.length, data: stored.map(renderMember) };
  });
}

export function removeMembers(deps: WorkspaceDeps, ref: string, userIds: string[]) {
  return deps.store.transaction(() => {
    const ws = findWorkspace(deps.store, ref);
    const ids = unique(userIds);
    const blocked = deps.store.workspaces.usersWithActiveKeys(ws.id, ids, deps.clock());
    if (blocked.length)
      throw conflict(`Cannot remove member(s) with active API keys in this workspace: ${blocked.join(", ")}`, { user_ids: blocked });
    if (ws.isDefault) throw badRequest("Every organization user belongs to the default workspace; members cannot be removed from it");
    return { removed_count: deps.store.members.remove(ws.id, ids) };
  });
}
