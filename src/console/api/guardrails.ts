import { t } from "elysia";
import type { AppContext } from "../../app-context";
import { defaultGuardrailId } from "../../gateway/guardrails/default-guardrail";
import type { SessionSource, Viewer } from "../../http/viewer";
import { CreateGuardrailBody, type GuardrailDataOut, GuardrailParams, KeyHashesBody, MemberIdsBody, UpdateGuardrailBody } from "../../modules/guardrails/model";
import {
  assignKeys,
  assignMembers,
  createGuardrail,
  deleteGuardrail,
  getGuardrail,
  listGuardrails,
  unassignKeys,
  unassignMembers,
  updateGuardrail,
} from "../../modules/guardrails/service";
import { resolveWorkspace } from "../../modules/keys/service";
import { canManageKey, requireWorkspace } from "../permissions";
import { consoleApiModule } from "./route-module";

const ListQuery = t.Object({ workspace_id: t.Optional(t.String({ minLength: 1, maxLength: 128 })) });

/** the console lists a workspace's guardrails on one page */
const ALL = 1000;

/** A guardrail as the console's Guardrails page shows it: the API's object, whether it is the workspace's default, and what it is assigned to. */
export type ConsoleGuardrail = GuardrailDataOut & {
  is_default: boolean;
  keys: Array<{ hash: string; name: string; label: string }>;
  members: Array<{ user_id: string; email: string | null; name: string | null }>;
};

/** The keys and members a guardrail is assigned to; a member sees their own keys among them only (as on the Keys page). */
async function withAssignments(ctx: AppContext, viewer: Viewer, g: GuardrailDataOut, isDefault: boolean): Promise<ConsoleGuardrail> {
  if (isDefault) return { ...g, is_default: true, keys: [], members: [] };
  const keyRows = await ctx.store.guardrails.keyAssignments(g.id, 0, ALL);
  const records = await Promise.all(keyRows.map((r) => ctx.store.keys.get(r.keyHash)));
  const keys = keyRows.filter((_, i) => records[i] !== undefined && canManageKey(viewer, records[i]!));
  const memberRows = await ctx.store.guardrails.memberAssignments(g.id, 0, ALL);
  const users = await Promise.all(memberRows.map((r) => ctx.store.users.get(r.userId)));
  return {
    ...g,
    is_default: false,
    keys: keys.map((r) => ({ hash: r.keyHash, name: r.keyName, label: r.keyLabel })),
    members: memberRows.map((r, i) => ({ user_id: r.userId, email: users[i]?.email ?? null, name: users[i]?.name ?? null })),
  };
}

/**
 * Guardrails, through the services of /api/v1/guardrails (the same validation, errors and audit
 * events; the signed-in person is the event's actor and the assignments' assigner). Everyone who
 * sees a workspace reads its guardrails; organization owners and admins change and assign them.
 */
export function consoleGuardrailRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-guardrails", ctx.store, sessions)
    .get(
      "/guardrails",
      async ({ viewer, query }) => {
        const ws = await resolveWorkspace(ctx.store, query.workspace_id, "workspace_id");
        requireWorkspace(viewer, ws.id);
        const defaultId = defaultGuardrailId(ws.id);
        const listed = await listGuardrails(ctx, { workspace_id: ws.id, limit: ALL });
        const others = listed.data.filter((g) => g.id !== defaultId);
        return {
          default: await withAssignments(ctx, viewer, await getGuardrail(ctx, defaultId), true),
          data: await Promise.all(others.map((g) => withAssignments(ctx, viewer, g, false))),
        };
      },
      { auth: "session", query: ListQuery },
    )
    .post(
      "/guardrails",
      async ({ origin, body, set }) => {
        set.status = 201;
        return { data: await createGuardrail(ctx, origin, body) };
      },
      { auth: "session:manager", body: CreateGuardrailBody },
    )
    .patch("/guardrails/:id", async ({ origin, params, body }) => ({ data: await updateGuardrail(ctx, origin, params.id, body) }), {
      auth: "session:manager",
      params: GuardrailParams,
      body: UpdateGuardrailBody,
    })
    .delete("/guardrails/:id", ({ origin, params }) => deleteGuardrail(ctx, origin, params.id), { auth: "session:manager", params: GuardrailParams })
    .post("/guardrails/:id/assignments/keys", ({ viewer, origin, params, body }) => assignKeys(ctx, origin, viewer.userId, params.id, body.key_hashes), {
      auth: "session:manager",
      params: GuardrailParams,
      body: KeyHashesBody,
    })
    .post("/guardrails/:id/assignments/keys/remove", ({ origin, params, body }) => unassignKeys(ctx, origin, params.id, body.key_hashes), {
      auth: "session:manager",
      params: GuardrailParams,
      body: KeyHashesBody,
    })
    .post(
      "/guardrails/:id/assignments/members",
      ({ viewer, origin, params, body }) => assignMembers(ctx, origin, viewer.userId, params.id, body.member_user_ids),
      { auth: "session:manager", params: GuardrailParams, body: MemberIdsBody },
    )
    .post("/guardrails/:id/assignments/members/remove", ({ origin, params, body }) => unassignMembers(ctx, origin, params.id, body.member_user_ids), {
      auth: "session:manager",
      params: GuardrailParams,
      body: MemberIdsBody,
    });
}
