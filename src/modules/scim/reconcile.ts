import type { ChangeOrigin } from "../../audit/origin";
import type { ScimGroupMappingRecord, StoreTables } from "../../store/store";
import { recordMemberChange } from "../workspaces/members";

type Role = ScimGroupMappingRecord["role"];

/** The workspaces a user's groups map them to, with the strongest role any mapping gives there. */
function wantedOf(mappings: readonly ScimGroupMappingRecord[], groupIds: ReadonlySet<string>): Map<string, Role> {
  const wanted = new Map<string, Role>();
  for (const m of mappings) if (groupIds.has(m.groupId)) wanted.set(m.workspaceId, wanted.get(m.workspaceId) === "admin" ? "admin" : m.role);
  return wanted;
}

/**
 * Brings one user's workspace memberships in line with the group mappings (OpenRouter's SCIM group
 * mappings): a mapped group's member joins the workspace with the mapping's role; a membership a
 * mapping made leaves when no mapping wants it any more. Memberships made by hand are never touched.
 */
async function reconcileUser(tx: StoreTables, now: number, origin: ChangeOrigin, mappings: readonly ScimGroupMappingRecord[], userId: string): Promise<void> {
  if (!(await tx.users.get(userId))) return;
  const wanted = wantedOf(mappings, new Set((await tx.scimGroups.groupsOf(userId)).map((g) => g.id)));
  const managed = new Set(await tx.scimMappings.managedWorkspacesOf(userId));
  const current = new Map((await tx.members.ofUser(userId)).map((m) => [m.workspaceId, m]));
  for (const [workspaceId, role] of wanted) {
    const before = current.get(workspaceId);
    if (before && (!managed.has(workspaceId) || before.role === role)) continue;
    const [after] = await tx.members.upsert([{ id: crypto.randomUUID(), workspaceId, userId, role, createdAt: now }]);
    if (!before) await tx.scimMappings.markManaged(workspaceId, userId);
    await recordMemberChange(tx, now, origin, before, after);
  }
  for (const workspaceId of managed) {
    if (wanted.has(workspaceId)) continue;
    const before = current.get(workspaceId);
    if (before) {
      await tx.members.remove(workspaceId, [userId]);
      await recordMemberChange(tx, now, origin, before, undefined);
    }
    await tx.scimMappings.unmarkManaged(workspaceId, userId);
  }
}

/** Reconciles each of the users (in the caller's transaction, with its events). */
export async function reconcileUsers(tx: StoreTables, now: number, origin: ChangeOrigin, userIds: Iterable<string>): Promise<void> {
  const mappings = await tx.scimMappings.list();
  for (const userId of new Set(userIds)) await reconcileUser(tx, now, origin, mappings, userId);
}
