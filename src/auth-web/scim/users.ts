import { type ScimPatchOperation, scimPatch } from "scim-patch";
import { filter as matches, parse as parseFilter } from "scim2-parse-filter";
import type { AppContext } from "../../app-context";
import type { ChangeOrigin } from "../../audit/origin";
import { recordKeyChange } from "../../modules/keys/service";
import { deleteUserIn, recordUserChange } from "../../modules/organization/service";
import type { StoreTables, UserRecord } from "../../store/store";
import { listResponse, MAX_PAGE } from "./discovery";
import { ScimProblem } from "./errors";
import { type ScimUserInput, type ScimUserView, scimBoolean, scimUserInput, scimUserView } from "./user-view";

type ScimContext = Pick<AppContext, "store" | "clock">;

async function viewOf(tx: Pick<StoreTables, "scimUsers" | "scimGroups">, user: UserRecord, base: string): Promise<ScimUserView> {
  return scimUserView(user, await tx.scimUsers.get(user.id), await tx.scimGroups.groupsOf(user.id), base);
}

async function existing(tx: Pick<StoreTables, "users">, id: string): Promise<UserRecord> {
  const user = await tx.users.get(id);
  if (!user) throw new ScimProblem(404, `User ${id} not found`);
  return user;
}

/** userName is unique among users, whatever its case (RFC 7643, section 4.1.1: userName is "server" unique and not case-exact). */
async function assertUnique(tx: Pick<StoreTables, "users">, userName: string, self?: string): Promise<void> {
  if ((await tx.users.findByEmail(userName)).some((u) => u.id !== self)) throw new ScimProblem(409, `userName ${userName} is already taken`, "uniqueness");
}

const ownerRefusal = () => new ScimProblem(400, "The organization's owner cannot be deactivated or deleted through SCIM", "mutability");

/** Writes what a client set on a user (new or existing), with its user.update event; a user turned inactive loses every session at once. */
async function applyInput(tx: StoreTables, now: number, origin: ChangeOrigin, current: UserRecord | null, input: ScimUserInput): Promise<UserRecord> {
  await assertUnique(tx, input.userName, current?.id);
  let user: UserRecord;
  if (!current) {
    user = await tx.users.create({ id: crypto.randomUUID(), email: input.userName, name: input.name, role: "member", createdAt: now, disabled: !input.active });
    await recordUserChange(tx, now, origin, null, user);
  } else {
    if (current.role === "owner" && !input.active) throw ownerRefusal();
    user = (await tx.users.update(current.id, { email: input.userName, name: input.name, disabled: !input.active }))!;
    if (user.disabled && !current.disabled) await tx.sessions.deleteForUser(user.id);
    if (JSON.stringify([current.email, current.name, current.disabled]) !== JSON.stringify([user.email, user.name, user.disabled]))
      await recordUserChange(tx, now, origin, current, user);
  }
  await tx.scimUsers.put({ userId: user.id, externalId: input.externalId, givenName: input.givenName, familyName: input.familyName, updatedAt: now });
  return user;
}

export function createScimUser(ctx: ScimContext, origin: ChangeOrigin, body: unknown, base: string): Promise<ScimUserView> {
  const input = scimUserInput(body);
  const now = ctx.clock();
  return ctx.store.transaction(async (tx) => viewOf(tx, await applyInput(tx, now, origin, null, input), base));
}

export async function getScimUser(ctx: ScimContext, id: string, base: string): Promise<ScimUserView> {
  return viewOf(ctx.store, await existing(ctx.store, id), base);
}

export function replaceScimUser(ctx: ScimContext, origin: ChangeOrigin, id: string, body: unknown, base: string): Promise<ScimUserView> {
  const input = scimUserInput(body);
  const now = ctx.clock();
  return ctx.store.transaction(async (tx) => viewOf(tx, await applyInput(tx, now, origin, await existing(tx, id), input), base));
}

/** The operations of a PatchOp body, as scim-patch takes them: Entra ID capitalises `op` ("Replace"), which RFC 7644 says is case-insensitive. */
function patchOperations(body: unknown): ScimPatchOperation[] {
  const ops = (body as { Operations?: unknown } | null)?.Operations;
  if (!Array.isArray(ops) || ops.length === 0) throw new ScimProblem(400, "A PatchOp body needs a non-empty Operations array", "invalidSyntax");
  return ops.map((op) => {
    const name = typeof op?.op === "string" ? op.op.toLowerCase() : "";
    if (name !== "add" && name !== "replace" && name !== "remove") throw new ScimProblem(400, `Unknown PATCH op '${op?.op}'`, "invalidSyntax");
    return { ...op, op: name } as ScimPatchOperation;
  });
}

/** Applies PATCH operations to a resource through scim-patch; its errors are SCIM's own (invalidPath, noTarget, invalidValue...). */
export function patched<T extends { meta: unknown; schemas: string[] }>(resource: T, body: unknown): T {
  try {
    return scimPatch(resource as never, patchOperations(body), { mutateDocument: false, treatMissingAsAdd: true }) as T;
  } catch (err) {
    if (err instanceof ScimProblem) throw err;
    const scimType = (err as { scimCode?: string }).scimCode as ScimProblem["scimType"];
    throw new ScimProblem(400, err instanceof Error ? err.message : String(err), scimType ?? "invalidValue");
  }
}

export function patchScimUser(ctx: ScimContext, origin: ChangeOrigin, id: string, body: unknown, base: string): Promise<ScimUserView> {
  const now = ctx.clock();
  return ctx.store.transaction(async (tx) => {
    const user = await existing(tx, id);
    const after = patched(await viewOf(tx, user, base), body) as ScimUserView & { active: unknown };
    const input = scimUserInput({ ...after, active: scimBoolean(after.active, "active") });
    return viewOf(tx, await applyInput(tx, now, origin, user, input), base);
  });
}

/**
 * DELETE: the user and their memberships, sessions and sign-in means go; their keys are disabled,
 * never deleted, so their spend history stays readable.
 */
export function deleteScimUser(ctx: ScimContext, origin: ChangeOrigin, id: string): Promise<void> {
  const now = ctx.clock();
  return ctx.store.transaction(async (tx) => {
    const user = await existing(tx, id);
    if (user.role === "owner") throw ownerRefusal();
    for (const key of await tx.keys.listByCreator(id)) {
      if (key.disabled) continue;
      const disabled = await tx.keys.update(key.hash, { disabled: true }, now);
      if (disabled) await recordKeyChange(tx, now, origin, "key.update", key, disabled);
    }
    await deleteUserIn(tx, now, origin, user);
  });
}

export type ListQuery = { filter?: string; startIndex?: string; count?: string };

/** RFC 7644, section 3.4.2.4: startIndex is 1-based (less than 1 reads as 1); count caps the page (negative reads as 0). */
export function pageOf(query: ListQuery): { start: number; count: number } {
  const number = (raw: string | undefined, field: string) => {
    if (raw === undefined) return undefined;
    if (!/^-?\d{1,9}$/.test(raw)) throw new ScimProblem(400, `${field} must be an integer`, "invalidValue");
    return Number(raw);
  };
  return { start: Math.max(1, number(query.startIndex, "startIndex") ?? 1), count: Math.min(MAX_PAGE, Math.max(0, number(query.count, "count") ?? 100)) };
}

/** The predicate of a filter (scim2-parse-filter); a filter it cannot read is 400 invalidFilter. */
export function filterOf(text: string | undefined): { test: (resource: unknown) => boolean; userNameEq?: string } {
  if (text === undefined || text.trim() === "") return { test: () => true };
  try {
    const ast = parseFilter(text);
    const userNameEq =
      ast.op === "eq" && "attrPath" in ast && ast.attrPath.toLowerCase() === "username" && typeof ast.compValue === "string" ? ast.compValue : undefined;
    return { test: matches(ast), userNameEq };
  } catch (err) {
    throw new ScimProblem(400, `Invalid filter: ${err instanceof Error ? err.message : String(err)}`, "invalidFilter");
  }
}

export async function listScimUsers(ctx: ScimContext, query: ListQuery, base: string) {
  const { start, count } = pageOf(query);
  const filter = filterOf(query.filter);
  // userName eq "…" (what Okta and Entra ask before every create) is a lookup; other filters read every user
  const users = filter.userNameEq !== undefined ? await ctx.store.users.findByEmail(filter.userNameEq) : await ctx.store.users.list(0, 1_000_000);
  const views = await Promise.all(users.map((u) => viewOf(ctx.store, u, base)));
  // userName is not case-exact (RFC 7643, section 4.1.1): the lookup already compared it so; the library's eq compares exactly
  const kept = filter.userNameEq !== undefined ? views : views.filter((v) => filter.test(v));
  return listResponse(kept.slice(start - 1, start - 1 + count), kept.length, start);
}
