import { t } from "elysia";

export const CreateScimTokenBody = t.Object({ name: t.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export const ScimTokenData = t.Object({ id: t.String(), name: t.String(), created_at: t.String() });

export const CreateScimTokenResponse = t.Object({ data: ScimTokenData, token: t.String({ description: "the raw token, shown once" }) });
export const ListScimTokensResponse = t.Object({ data: t.Array(ScimTokenData) });
export const ScimTokenParams = t.Object({ id: t.String({ minLength: 1, maxLength: 100 }) });
export const DeletedResponse = t.Object({ deleted: t.Literal(true) });

export type ScimTokenOut = typeof ScimTokenData.static;

/** OpenRouter's SCIM management shapes (`@openrouter/sdk` `scim.*`). */
const Role = t.Union([t.Literal("admin"), t.Literal("member")]);

export const ScimPageQuery = t.Object({
  offset: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100 })),
});
export const ScimGroupData = t.Object({
  id: t.String(),
  display_name: t.String(),
  external_id: t.Union([t.String(), t.Null()]),
  organization_id: t.String(),
  created_at: t.String(),
  updated_at: t.String(),
});
export const ListScimGroupsResponse = t.Object({ data: t.Array(ScimGroupData), total_count: t.Integer() });

export const CreateScimGroupMappingBody = t.Object(
  { scim_group_id: t.String({ minLength: 1, maxLength: 100 }), workspace_id: t.String({ minLength: 1, maxLength: 128 }), role: Role },
  { additionalProperties: false },
);
export const UpdateScimGroupMappingBody = t.Object({ role: Role }, { additionalProperties: false });
export const ScimGroupMappingData = t.Object({
  id: t.String(),
  scim_group_id: t.String(),
  workspace_id: t.String(),
  role: Role,
  organization_id: t.String(),
  created_at: t.String(),
  updated_at: t.String(),
});
export const ScimGroupMappingResponse = t.Object({ data: ScimGroupMappingData });
export const ListScimGroupMappingsResponse = t.Object({ data: t.Array(ScimGroupMappingData), total_count: t.Integer() });
export const DeleteScimGroupMappingQuery = t.Object({
  keep_members: t.Union([t.Literal("true"), t.Literal("false")], {
    description: "required: true leaves the memberships the mapping made (as made by hand), false removes them",
  }),
});

export const ScimSyncJobData = t.Object({
  id: t.String(),
  status: t.Union([t.Literal("queued"), t.Literal("running"), t.Literal("succeeded"), t.Literal("failed")]),
  synced_groups: t.Union([t.Integer(), t.Null()]),
  deleted_groups: t.Union([t.Integer(), t.Null()]),
  error_message: t.Union([t.String(), t.Null()]),
  created_at: t.String(),
  started_at: t.Union([t.String(), t.Null()]),
  finished_at: t.Union([t.String(), t.Null()]),
});
export const ScimSyncJobResponse = t.Object({ data: ScimSyncJobData });

/** A sync job takes no parameters: an empty object, or no body. */
export const CreateScimSyncJobBody = t.Optional(t.Object({}, { additionalProperties: false }));

export type ScimGroupOut = typeof ScimGroupData.static;
export type ScimGroupMappingOut = typeof ScimGroupMappingData.static;
export type ScimSyncJobOut = typeof ScimSyncJobData.static;
