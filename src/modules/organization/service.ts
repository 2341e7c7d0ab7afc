import { changesBetween } from "../../audit/changes";
import type { ChangeOrigin } from "../../audit/origin";
import { type AuditTables, recordChange } from "../../audit/record";
import { conflict, notFound } from "../../errors";
import type { ApiKeyRecord, Store, StoreTables, UserPatch, UserRecord } from "../../store/store";
import { isoTime } from "../../time";
import { recordKeyChange } from "../keys/service";
import type { CreateUserInput, PageInput, UserDataOut } from "./model";

export type OrganizationDeps = { store: Store; clock: () => number };

export function renderUser(user: UserRecord): UserDataOut {
  const [first, ...rest] = (user.name ?? "").trim().split(/\s+/).filter(Boolean);
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    first_name: first ?? null,
    last_name: rest.length ? rest.join(" ") : null,
    role: user.role,
    created_at: isoTime(user.createdAt),
  };
}

/** Records a user's change in the transaction `tx` that makes it (null `before`: created; null `after`: removed). */
export function recordUserChange(tx: AuditTables, now: number, origin: ChangeOrigin, before: UserRecord | null, after: UserRecord | null) {
  const shown = (u: UserRecord | null) => u && { email: u.email, name: u.name, role: u.role, active: !u.disabled };
  return recordChange(tx, now, origin, {
    action: !before ? "user.create" : !after ? "user.delete" : "user.update",
    target: { type: "user", id: (after ?? before)!.id },
    changes: changesBetween(shown(before), shown(after)),
  });
}

export function createUser(deps: OrganizationDeps, origin: ChangeOrigin, body: CreateUserInput): Promise<UserDataOut> {
  const id = body.id ?? crypto.randomUUID();
  const now = deps.clock();
  return deps.store.transaction(async (tx) => {
    if (await tx.users.get(id)) throw conflict(`A user with id '${id}' already exists`, { id });
    const user = await tx.users.create({ id, email: body.email ?? null, name: body.name ?? null, role: body.role, createdAt: now });
    await recordUserChange(tx, now, origin, null, user);
    return renderUser(user);
  });
}

/** Changes a user's email, name or role, with its user.update event. */
export function updateUser(deps: OrganizationDeps, origin: ChangeOrigin, id: string, patch: UserPatch): Promise<UserRecord> {
  const now = deps.clock();
  return deps.store.transaction(async (tx) => {
    const before = await existingUser(tx, id);
    const after = (await tx.users.update(id, patch))!;
    await recordUserChange(tx, now, origin, before, after);
    return after;
  });
}

export async function listUsers(deps: OrganizationDeps, query: PageInput): Promise<{ data: UserDataOut[]; total_count: number }> {
  // The SDK's ListOrganizationMembersData requires `email: string`; a user without one lists as "".
  const users = await deps.store.users.list(query.offset ?? 0, query.limit ?? 50);
  const data = users.map((u) => ({ ...renderUser(u), email: u.email ?? "" }));
  return { data, total_count: await deps.store.users.count() };
}

async function existingUser(store: Pick<Store, "users">, id: string): Promise<UserRecord> {
  const user = await store.users.get(id);
  if (!user) throw notFound(`User not found: '${id}'`);
  return user;
}

/** The user's live keys in every workspace (disabled ones included). */
export async function userKeys(deps: OrganizationDeps, id: string): Promise<ApiKeyRecord[]> {
  await existingUser(deps.store, id);
  return deps.store.keys.listByCreator(id);
}

/** Soft-deletes every live key the user created, each with its key.delete event, in the caller's transaction; how many. */
export async function revokeKeysIn(tx: StoreTables, now: number, origin: ChangeOrigin, userId: string): Promise<number> {
  const keys = await tx.keys.listByCreator(userId);
  const revoked = await tx.keys.deleteByCreator(userId, now);
  for (const key of keys) await recordKeyChange(tx, now, origin, "key.delete", key, null);
  return revoked;
}

/** Revokes every key the user created; how many. They stop authenticating at once on every instance (the key cache hears the write). */
export function revokeUserKeys(deps: OrganizationDeps, origin: ChangeOrigin, id: string): Promise<number> {
  return deps.store.transaction(async (tx) => {
    await existingUser(tx, id);
    return revokeKeysIn(tx, deps.clock(), origin, id);
  });
}

/**
 * Removes a user from the organization, with everything that let them act: their keys (revoked
 * on every instance at once), sessions, invites, unredeemed codes, password and workspace
 * memberships. The owner stays.
 */
export async function removeUser(deps: OrganizationDeps, origin: ChangeOrigin, id: string): Promise<{ deleted: true; revoked_keys: number }> {
  const now = deps.clock();
  return deps.store.transaction(async (tx) => {
    const user = await existingUser(tx, id);
    if (user.role === "owner") throw conflict("The organization's owner cannot be removed", { id });
    const revoked = await revokeKeysIn(tx, now, origin, id);
    await deleteUserIn(tx, now, origin, user);
    return { deleted: true as const, revoked_keys: revoked };
  });
}

/**
 * Deletes the user and everything that lets them act or sign in (sessions, invites, unredeemed
 * codes, password, memberships, linked identities, SCIM attributes), with the user.delete event,
 * in the caller's transaction; their keys are the caller's business.
 */
export async function deleteUserIn(tx: StoreTables, now: number, origin: ChangeOrigin, user: UserRecord): Promise<void> {
  await tx.sessions.deleteForUser(user.id);
  await tx.invites.deleteForUser(user.id);
  await tx.authCodes.deleteForUser(user.id);
  await tx.passwords.delete(user.id);
  await tx.members.removeUser(user.id);
  await tx.identities.deleteForUser(user.id);
  await tx.scimUsers.delete(user.id);
  await tx.scimGroups.removeUser(user.id);
  for (const workspaceId of await tx.scimMappings.managedWorkspacesOf(user.id)) await tx.scimMappings.unmarkManaged(workspaceId, user.id);
  await tx.users.delete(user.id);
  await recordUserChange(tx, now, origin, user, null);
}

/**
 * Changes an admin's or a member's organization role (the owner's stays: 409). Sessions read the
 * role on every request, so the change applies at once; the read cache hears the write.
 */
export async function setUserRole(deps: OrganizationDeps, origin: ChangeOrigin, id: string, role: "admin" | "member"): Promise<UserDataOut> {
  return deps.store.transaction(async (tx) => {
    const user = await existingUser(tx, id);
    if (user.role === "owner") throw conflict("The organization's owner keeps the owner role", { id });
    const updated = (await tx.users.update(id, { role }))!;
    await recordUserChange(tx, deps.clock(), origin, user, updated);
    return renderUser(updated);
  });
}
