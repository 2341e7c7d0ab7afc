import { conflict, notFound } from "../../errors";
import type { ApiKeyRecord, Store, UserRecord } from "../../store/store";
import { isoTime } from "../../time";
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

export function createUser(deps: OrganizationDeps, body: CreateUserInput): Promise<UserDataOut> {
  const id = body.id ?? crypto.randomUUID();
  return deps.store.transaction(async (tx) => {
    if (await tx.users.get(id)) throw conflict(`A user with id '${id}' already exists`, { id });
    return renderUser(await tx.users.create({ id, email: body.email ?? null, name: body.name ?? null, role: body.role, createdAt: deps.clock() }));
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

/** Revokes every key the user created; how many. They stop authenticating at once on every instance (the key cache hears the write). */
export async function revokeUserKeys(deps: OrganizationDeps, id: string): Promise<number> {
  await existingUser(deps.store, id);
  return deps.store.keys.deleteByCreator(id, deps.clock());
}

/**
 * Removes a user from the organization, with everything that let them act: their keys (revoked
 * on every instance at once), sessions, invites, unredeemed codes, password and workspace
 * memberships. The owner stays.
 */
export async function removeUser(deps: OrganizationDeps, id: string): Promise<{ deleted: true; revoked_keys: number }> {
  return deps.store.transaction(async (tx) => {
    const user = await existingUser(tx, id);
    if (user.role === "owner") throw conflict("The organization's owner cannot be removed", { id });
    const revoked = await tx.keys.deleteByCreator(id, deps.clock());
    await tx.sessions.deleteForUser(id);
    await tx.invites.deleteForUser(id);
    await tx.authCodes.deleteForUser(id);
    await tx.passwords.delete(id);
    await tx.members.removeUser(id);
    await tx.users.delete(id);
    return { deleted: true as const, revoked_keys: revoked };
  });
}

/**
 * Changes an admin's or a member's organization role (the owner's stays: 409). Sessions read the
 * role on every request, so the change applies at once; the read cache hears the write.
 */
export async function setUserRole(deps: OrganizationDeps, id: string, role: "admin" | "member"): Promise<UserDataOut> {
  return deps.store.transaction(async (tx) => {
    const user = await existingUser(tx, id);
    if (user.role === "owner") throw conflict("The organization's owner keeps the owner role", { id });
    return renderUser((await tx.users.update(id, { role }))!);
  });
}
