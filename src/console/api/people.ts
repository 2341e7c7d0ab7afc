import { t } from "elysia";
import type { AppContext } from "../../app-context";
import { createInvite } from "../../auth-web/accounts";
import { badRequest, GatewayError } from "../../errors";
import type { SessionSource } from "../../http/viewer";
import { createUser, removeUser, renderUser, setUserRole } from "../../modules/organization/service";
import { addMembers } from "../../modules/workspaces/members";
import { isoTime } from "../../time";
import { consoleApiModule } from "./route-module";

const Role = t.Union([t.Literal("admin"), t.Literal("member")]);
const PersonParams = t.Object({ id: t.String({ minLength: 1, maxLength: 128 }) });
const InviteBody = t.Object(
  {
    email: t.String({ minLength: 3, maxLength: 320, pattern: "^[^@\\s]+@[^@\\s]+$" }),
    name: t.Optional(t.String({ minLength: 1, maxLength: 256 })),
    role: Role,
    workspace_ids: t.Optional(t.Array(t.String({ minLength: 1 }), { maxItems: 100 })),
  },
  { additionalProperties: false },
);

/** Where invite links point: the public URL the operator set, else the origin the console was reached at. */
const baseUrl = (ctx: AppContext, request: Request) => ctx.config.server.publicUrl ?? new URL(request.url).origin;

/**
 * The organization's people, for its owners and admins: who is in it and in which workspaces,
 * whether they chose a password yet; an invitation (a user, their workspaces and a one-time link
 * shown once); a new link; removal; and, for owners only, roles.
 */
export function consolePeopleRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-people", ctx.store, sessions)
    .get(
      "/people",
      async () => {
        const users = await ctx.store.users.list(0, 1000);
        const workspaces = new Map((await ctx.store.workspaces.list(0, 1000)).map((w) => [w.id, w.name]));
        const data = await Promise.all(
          users.map(async (u) => ({
            ...renderUser(u),
            signed_up: (await ctx.store.passwords.get(u.id)) !== undefined,
            workspaces: (await ctx.store.members.ofUser(u.id)).map((m) => ({ id: m.workspaceId, name: workspaces.get(m.workspaceId) ?? m.workspaceId })),
          })),
        );
        return { data };
      },
      { auth: "session:manager" },
    )
    .post(
      "/people",
      async ({ origin, body, request, set }) => {
        if ((await ctx.store.users.findByEmail(body.email)).length > 0)
          throw new GatewayError(409, `Invalid field 'email': someone in the organization already has ${body.email}`, { field: "email" });
        const user = await createUser(ctx, origin, { email: body.email, name: body.name ?? null, role: body.role });
        for (const ws of body.workspace_ids ?? []) await addMembers(ctx, origin, ws, [user.id]);
        const invite = await createInvite(ctx, user.id, baseUrl(ctx, request));
        set.status = 201;
        return { data: user, invite_url: invite.url, invite_expires_at: isoTime(invite.expiresAt) };
      },
      { auth: "session:manager", body: InviteBody },
    )
    .post(
      "/people/:id/invite",
      async ({ params, request }) => {
        const invite = await createInvite(ctx, params.id, baseUrl(ctx, request));
        return { invite_url: invite.url, invite_expires_at: isoTime(invite.expiresAt) };
      },
      { auth: "session:manager", params: PersonParams },
    )
    .patch(
      "/people/:id",
      async ({ viewer, origin, params, body }) => {
        if (viewer.role !== "owner") throw new GatewayError(403, "Only the organization's owner changes roles");
        return { data: await setUserRole(ctx, origin, params.id, body.role) };
      },
      { auth: "session:manager", params: PersonParams, body: t.Object({ role: Role }, { additionalProperties: false }) },
    )
    .delete(
      "/people/:id",
      ({ viewer, origin, params }) => {
        if (params.id === viewer.userId) throw badRequest("You cannot remove yourself; another owner or admin can", { field: "id" });
        return removeUser(ctx, origin, params.id);
      },
      { auth: "session:manager", params: PersonParams },
    );
}
