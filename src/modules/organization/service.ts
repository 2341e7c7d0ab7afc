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

export function createUser(deps: OrganizationDeps, body: CreateUserInput): UserDataOut {
  const id = body.id ?? crypto.randomUUID();
  return deps.store.transaction(() => {
    if (deps.store.users.get(id)) throw conflict(`A user with id '${id}' already exists`, { id });
    return renderUser(deps.store.users.create({ id, email: body.email ?? null, name: body.name ?? null, role: body.role, createdAt: deps.clock() }));
  });
}

export function listUsers(deps: OrganizationDeps, query: PageInput): { data: UserDataOut[]; total_count: number } {
  // The SDK's ListOrganizationMembersData requires `email: string`; a user without one lists as "".
  const data = deps.store.users.list(query.offset ?? 0, query.limit ?? 50).map((u) => ({ ...renderUser(u), email: u.email ?? "" }));
  return { data, total_count: deps.store.users.count() };
}
