import type { AppContext } from "../../app-context";
import { changesBetween } from "../../audit/changes";
import type { ChangeOrigin } from "../../audit/origin";
import { recordChange } from "../../audit/record";
import { reconcileUsers } from "../../modules/scim/reconcile";
import type { ScimGroupRecord, StoreTables, UserRecord } from "../../store/store";
import { listResponse } from "./discovery";
import { ScimProblem } from "./errors";
import { type ScimGroupInput, type ScimGroupView, scimGroupInput, scimGroupView } from "./group-view";
import { filterOf, type ListQuery, pageOf, patched } from "./users";

type ScimContext = Pick<AppContext, "store" | "clock">;
type Reader = Pick<StoreTables, "scimGroups" | "users">;

async function viewOf(tx: Reader, group: ScimGroupRecord, base: string): Promise<ScimGroupView> {
  const users = await Promise.all((await tx.scimGroups.members(group.id)).map((id) => tx.users.get(id)));
  return scimGroupView(
    group,
    users.filter((u): u is UserRecord => u !== undefined),
    base,
  );
}

async function existing(tx: Pick<StoreTables, "scimGroups">, id: string): Promise<ScimGroupRecord> {
  const group = await tx.scimGroups.get(id);
  if (!group) throw new ScimProblem(404, `Group ${id} not found`);
  return group;
}

/** Members must be provisioned users: an unknown id is 400 invalidValue, and nothing is written. */
async function assertKnownUsers(tx: Pick<StoreTables, "users">, ids: readonly string[]): Promise<void> {
  for (const id of ids) if (!(await tx.users.get(id))) throw new ScimProblem(400, `members: no user ${id}`, "invalidValue");
}

const audited = (g: Pick<ScimGroupRecord, "displayName" | "externalId">, members: readonly string[]) => ({
  display_name: g.displayName,
  external_id: g.externalId,
  members: [...members].sort(),
});

/**
 * Writes what a client set on a group (new or existing): its name, and its members as a whole; the
 * users who joined or left have their mapped workspace memberships reconciled in the same transaction.
 */
async function applyInput(
  tx: StoreTables,
  now: number,
  origin: ChangeOrigin,
  current: ScimGroupRecord | null,
  input: ScimGroupInput,
): Promise<ScimGroupRecord> {
  await assertKnownUsers(tx, input.memberIds);
  const before = current ? await tx.scimGroups.members(current.id) : [];
  const fields = { displayName: input.displayName, externalId: input.externalId, updatedAt: now };
  const group = current
    ? ((await tx.scimGroups.update(current.id, fields)) ?? current)
    : await tx.scimGroups.create({ id: crypto.randomUUID(), ...fields, createdAt: now });
  const wanted = new Set(input.memberIds);
  const removed = await tx.scimGroups.removeMembers(
    group.id,
    before.filter((id) => !wanted.has(id)),
  );
  const added = await tx.scimGroups.addMembers(group.id, input.memberIds);
  const changes = changesBetween(current ? audited(current, before) : null, audited(group, input.memberIds));
  if (Object.keys(changes).length > 0)
    await recordChange(tx, now, origin, { action: current ? "scim_group.update" : "scim_group.create", target: { type: "scim_group", id: group.id }, changes });
  await reconcileUsers(tx, now, origin, [...added, ...removed]);
  return group;
}

export function createScimGroup(ctx: ScimContext, origin: ChangeOrigin, body: unknown, base: string): Promise<ScimGroupView> {
  const input = scimGroupInput(body);
  const now = ctx.clock();
  return ctx.store.transaction(async (tx) => viewOf(tx, await applyInput(tx, now, origin, null, input), base));
}

export async function getScimGroup(ctx: ScimContext, id: string, base: string): Promise<ScimGroupView> {
  return viewOf(ctx.store, await existing(ctx.store, id), base);
}

export function replaceScimGroup(ctx: ScimContext, origin: ChangeOrigin, id: string, body: unknown, base: string): Promise<ScimGroupView> {
  const input = scimGroupInput(body);
  const now = ctx.clock();
  return ctx.store.transaction(async (tx) => viewOf(tx, await applyInput(tx, now, origin, await existing(tx, id), input), base));
}

type Operation = { op?: unknown; path?: unknown; value?: unknown };

/**
 * Entra ID removes members with `path: "members"` and the members in `value`; scim-patch reads a
 * remove with a bare path as "remove them all", so each named member becomes a
 * `members[value eq "id"]` remove, the shape RFC 7644 (section 3.5.2.2) gives.
 */
function withMemberRemovesByPath(body: unknown): unknown {
  const ops = (body as { Operations?: unknown } | null)?.Operations;
  if (!Array.isArray(ops)) return body;
  const expanded = ops.flatMap((op: Operation) => {
    const isRemove = typeof op?.op === "string" && op.op.toLowerCase() === "remove";
    if (!isRemove || typeof op.path !== "string" || op.path.toLowerCase() !== "members" || !Array.isArray(op.value)) return [op];
    return op.value.map((m: { value?: unknown }) => {
      if (typeof m?.value !== "string") throw new ScimProblem(400, "members: each value to remove needs a user id in 'value'", "invalidValue");
      return { op: "remove", path: `members[value eq ${JSON.stringify(m.value)}]` };
    });
  });
  return { ...(body as object), Operations: expanded };
}

/**
 * PATCH through scim-patch on the group as SCIM shows it: Okta's `members[value eq "id"]` paths,
 * Entra's `path: "members"` with a value array, and a replace of displayName all land on that view.
 */
export function patchScimGroup(ctx: ScimContext, origin: ChangeOrigin, id: string, body: unknown, base: string): Promise<ScimGroupView> {
  const now = ctx.clock();
  return ctx.store.transaction(async (tx) => {
    const group = await existing(tx, id);
    const after = patched(await viewOf(tx, group, base), withMemberRemovesByPath(body));
    return viewOf(tx, await applyInput(tx, now, origin, group, scimGroupInput(after)), base);
  });
}

/** DELETE: the group and its members go; the memberships its mappings made leave with it. */
export function deleteScimGroup(ctx: ScimContext, origin: ChangeOrigin, id: string): Promise<void> {
  const now = ctx.clock();
  return ctx.store.transaction(async (tx) => {
    const group = await existing(tx, id);
    const members = await tx.scimGroups.members(id);
    await tx.scimGroups.delete(id);
    await recordChange(tx, now, origin, {
      action: "scim_group.delete",
      target: { type: "scim_group", id },
      changes: changesBetween(audited(group, members), null),
    });
    await reconcileUsers(tx, now, origin, members);
  });
}

export type GroupListQuery = ListQuery & { excludedAttributes?: string };

/** Entra ID lists groups with excludedAttributes=members (RFC 7644, section 3.4.2.5): the members are left out. */
export async function listScimGroups(ctx: ScimContext, query: GroupListQuery, base: string) {
  const { start, count } = pageOf(query);
  const filter = filterOf(query.filter);
  const views = await Promise.all((await ctx.store.scimGroups.list()).map((g) => viewOf(ctx.store, g, base)));
  const kept = views.filter((v) => filter.test(v));
  const withoutMembers = (query.excludedAttributes ?? "")
    .split(",")
    .map((a) => a.trim().toLowerCase())
    .includes("members");
  const page = kept.slice(start - 1, start - 1 + count).map((v) => (withoutMembers ? { ...v, members: undefined } : v));
  return listResponse(page, kept.length, start);
}
