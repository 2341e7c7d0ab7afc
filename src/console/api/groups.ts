import { t } from "elysia";
import type { AppContext } from "../../app-context";
import type { SessionSource } from "../../http/viewer";
import { createMapping, deleteMapping, listGroups, listMappings, updateMapping } from "../../modules/scim/mappings";
import { CreateScimGroupMappingBody, DeleteScimGroupMappingQuery, ScimTokenParams, UpdateScimGroupMappingBody } from "../../modules/scim/model";
import { consoleApiModule } from "./route-module";

/** Every group and mapping on one page: an organization has tens of groups, not thousands. */
const ALL = { offset: 0, limit: 10_000 };

/**
 * a group's members as the console shows people (their name, else their email), in name order:
 * the store lists them in no stated order, and a list a person reads should not reshuffle
 */
async function personNames(ctx: AppContext, ids: readonly string[]): Promise<Array<{ id: string; name: string }>> {
  const people = await Promise.all(
    ids.map(async (id) => {
      const u = await ctx.store.users.get(id);
      return { id, name: u?.name ?? u?.email ?? id };
    }),
  );
  return people.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/**
 * SCIM groups and their mappings to workspaces, for the organization's owners and admins: the
 * groups the identity provider pushed with their members by name, and the mappings through the
 * services of /api/v1/scim/group-mappings (the same checks, errors and audit events).
 */
export function consoleGroupRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-groups", ctx.store, sessions)
    .get(
      "/groups",
      async () => {
        const groups = await listGroups(ctx, ALL);
        const data = await Promise.all(
          groups.data.map(async (g) => ({
            id: g.id,
            display_name: g.display_name,
            external_id: g.external_id,
            members: await personNames(ctx, await ctx.store.scimGroups.members(g.id)),
          })),
        );
        return { data };
      },
      { auth: "session:manager" },
    )
    .get(
      "/group-mappings",
      async () => {
        const mappings = await listMappings(ctx, ALL);
        const data = await Promise.all(
          mappings.data.map(async (m) => ({
            ...m,
            group_name: (await ctx.store.scimGroups.get(m.scim_group_id))?.displayName ?? null,
            workspace_name: (await ctx.store.workspaces.find(m.workspace_id))?.name ?? null,
          })),
        );
        return { data };
      },
      { auth: "session:manager" },
    )
    .post(
      "/group-mappings",
      async ({ origin, body, set }) => {
        set.status = 201;
        return createMapping(ctx, origin, body);
      },
      { auth: "session:manager", body: CreateScimGroupMappingBody },
    )
    .patch("/group-mappings/:id", ({ origin, params, body }) => updateMapping(ctx, origin, params.id, body.role), {
      auth: "session:manager",
      params: ScimTokenParams,
      body: UpdateScimGroupMappingBody,
    })
    .delete("/group-mappings/:id", ({ origin, params, query }) => deleteMapping(ctx, origin, params.id, query.keep_members), {
      auth: "session:manager",
      params: ScimTokenParams,
      query: t.Partial(DeleteScimGroupMappingQuery),
    });
}
