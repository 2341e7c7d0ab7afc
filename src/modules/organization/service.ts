import { conflict } from "../../errors";
import type { Store, UserRecord } from "../../store/store";
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
