import { t } from "elysia";
import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { createMapping, createSyncJob, deleteMapping, getMapping, getSyncJob, listGroups, listMappings, updateMapping } from "./mappings";
import {
  CreateScimGroupMappingBody,
  CreateScimSyncJobBody,
  CreateScimTokenBody,
  CreateScimTokenResponse,
  DeletedResponse,
  DeleteScimGroupMappingQuery,
  ListScimGroupMappingsResponse,
  ListScimGroupsResponse,
  ListScimTokensResponse,
  ScimGroupMappingResponse,
  ScimPageQuery,
  ScimSyncJobResponse,
  ScimTokenParams,
  UpdateScimGroupMappingBody,
} from "./model";
import { createScimToken, deleteScimToken, listScimTokens } from "./tokens";

const tags = ["SCIM"];

/** The tokens SCIM clients call /scim/v2 with, and OpenRouter's group mappings and sync jobs: management keys only. */
export function scimManagementRoutes(ctx: AppContext) {
  return routeModule("scim-management", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .post(
      "/scim/tokens",
      async ({ origin, body, set }) => {
        set.status = 201;
        return createScimToken(ctx, origin, body.name);
      },
      {
        auth: "management",
        body: CreateScimTokenBody,
        response: { 201: CreateScimTokenResponse },
        detail: { tags, summary: "Create a SCIM token (the raw token is returned once)" },
      },
    )
    .get("/scim/tokens", () => listScimTokens(ctx), {
      auth: "management",
      response: ListScimTokensResponse,
      detail: { tags, summary: "List SCIM tokens" },
    })
    .delete("/scim/tokens/:id", ({ origin, params }) => deleteScimToken(ctx, origin, params.id), {
      auth: "management",
      params: ScimTokenParams,
      response: DeletedResponse,
      detail: { tags, summary: "Revoke a SCIM token" },
    })
    .get("/scim/groups", ({ query }) => listGroups(ctx, query), {
      auth: "management",
      query: ScimPageQuery,
      response: ListScimGroupsResponse,
      detail: { tags, summary: "List the groups SCIM provisioned (their ids are those of /scim/v2/Groups)" },
    })
    .get("/scim/group-mappings", ({ query }) => listMappings(ctx, query), {
      auth: "management",
      query: ScimPageQuery,
      response: ListScimGroupMappingsResponse,
      detail: { tags, summary: "List group mappings" },
    })
    .post(
      "/scim/group-mappings",
      async ({ origin, body, set }) => {
        set.status = 201;
        return createMapping(ctx, origin, body);
      },
      {
        auth: "management",
        body: CreateScimGroupMappingBody,
        response: { 201: ScimGroupMappingResponse },
        detail: { tags, summary: "Map a SCIM group to a workspace and role: the group's members become members of the workspace" },
      },
    )
    .get("/scim/group-mappings/:id", ({ params }) => getMapping(ctx, params.id), {
      auth: "management",
      params: ScimTokenParams,
      response: ScimGroupMappingResponse,
      detail: { tags, summary: "Get a group mapping" },
    })
    .patch("/scim/group-mappings/:id", ({ origin, params, body }) => updateMapping(ctx, origin, params.id, body.role), {
      auth: "management",
      params: ScimTokenParams,
      body: UpdateScimGroupMappingBody,
      response: ScimGroupMappingResponse,
      detail: { tags, summary: "Change a group mapping's role" },
    })
    .delete("/scim/group-mappings/:id", ({ origin, params, query }) => deleteMapping(ctx, origin, params.id, query.keep_members), {
      auth: "management",
      params: ScimTokenParams,
      query: t.Partial(DeleteScimGroupMappingQuery),
      response: DeletedResponse,
      detail: { tags, summary: "Delete a group mapping (keep_members is required)" },
    })
    .post(
      "/scim/sync-jobs",
      async ({ origin, set }) => {
        set.status = 202;
        return createSyncJob(ctx, origin);
      },
      {
        auth: "management",
        body: CreateScimSyncJobBody,
        response: { 202: ScimSyncJobResponse },
        detail: { tags, summary: "Re-apply every group mapping to the current group memberships" },
      },
    )
    .get("/scim/sync-jobs/:id", ({ params }) => getSyncJob(ctx, params.id), {
      auth: "management",
      params: ScimTokenParams,
      response: ScimSyncJobResponse,
      detail: { tags, summary: "Get a sync job" },
    });
}
