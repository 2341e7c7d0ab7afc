import type { TLiteral, TSchema, TUnion } from "@sinclair/typebox";
import { t } from "elysia";
import { DESTINATION_TYPES } from "../../observability/contract";

/**
 * A union of string literals, typed literal by literal so Elysia infers each one. Not
 * t.UnionEnum: that gives the schema its first value as a default, so a body without the field
 * would be filled in (a destination without `type` would become `arize`).
 */
function literals<const T extends readonly string[]>(values: T): TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }> {
  return t.Union(values.map((v) => t.Literal(v)) as unknown as TSchema[]) as never;
}

export const DestinationTypeSchema = literals(DESTINATION_TYPES);

export const FILTER_FIELDS = [
  "model",
  "provider",
  "session_id",
  "user_id",
  "api_key_name",
  "finish_reason",
  "input",
  "output",
  "total_cost",
  "total_tokens",
  "prompt_tokens",
  "completion_tokens",
] as const;
export const FILTER_OPERATORS = [
  "equals",
  "not_equals",
  "contains",
  "not_contains",
  "regex",
  "starts_with",
  "ends_with",
  "gt",
  "lt",
  "gte",
  "lte",
  "exists",
  "not_exists",
] as const;

const FilterRule = t.Object(
  { field: literals(FILTER_FIELDS), operator: literals(FILTER_OPERATORS), value: t.Optional(t.Union([t.String({ maxLength: 1024 }), t.Number()])) },
  { additionalProperties: false },
);
const FilterGroup = t.Object({ logic: t.Optional(literals(["and", "or"])), rules: t.Array(FilterRule, { maxItems: 50 }) }, { additionalProperties: false });

/** Which generations a destination receives; `enabled: false` or no groups: all of them. */
export const FilterRulesSchema = t.Object(
  { enabled: t.Optional(t.Boolean()), groups: t.Array(FilterGroup, { maxItems: 20 }) },
  { additionalProperties: false },
);

/** `eu` is taken as `europe`. */
const RegionInput = literals(["global", "europe", "us", "eu"]);
const Region = literals(["global", "europe", "us"]);

/** The config of the destination's type; each type's keys are checked when saved (camelCase, every value a string, `headers` an object). */
const ConfigInput = t.Record(t.String(), t.Unknown(), {
  description: "The type's config keys (camelCase); `headers` adds request headers. Secret values are returned masked.",
});

const settings = {
  name: t.String({ minLength: 1, maxLength: 255 }),
  enabled: t.Boolean(),
  privacy_mode: t.Boolean({ description: "Forward metadata only: no prompts or completions" }),
  sampling_rate: t.Number({ minimum: 0.0001, maximum: 1 }),
  regions: t.Array(RegionInput, { minItems: 1, maxItems: 4 }),
  api_key_hashes: t.Nullable(
    t.Array(t.String({ pattern: "^[0-9a-f]{64}$" }), { minItems: 1, maxItems: 100, description: "Only these keys' generations; null: every key" }),
  ),
  filter_rules: t.Nullable(FilterRulesSchema),
  broadcast_generation_cost: t.Boolean(),
  broadcast_generation_identity: t.Boolean(),
  broadcast_generation_request_context: t.Boolean(),
};

/** Every setting but the name, optional: a create fills in the defaults, an update changes only what it names. */
const optionalSettings = {
  enabled: t.Optional(settings.enabled),
  privacy_mode: t.Optional(settings.privacy_mode),
  sampling_rate: t.Optional(settings.sampling_rate),
  regions: t.Optional(settings.regions),
  api_key_hashes: t.Optional(settings.api_key_hashes),
  filter_rules: t.Optional(settings.filter_rules),
  broadcast_generation_cost: t.Optional(settings.broadcast_generation_cost),
  broadcast_generation_identity: t.Optional(settings.broadcast_generation_identity),
  broadcast_generation_request_context: t.Optional(settings.broadcast_generation_request_context),
};

export const CreateDestinationBody = t.Object(
  {
    type: DestinationTypeSchema,
    name: settings.name,
    config: ConfigInput,
    ...optionalSettings,
    workspace_id: t.Optional(t.String({ minLength: 1, description: "Default: the default workspace" })),
  },
  { additionalProperties: false },
);

/** Only the fields sent change; `type` and `workspace_id` cannot. */
export const UpdateDestinationBody = t.Object(
  { name: t.Optional(settings.name), config: t.Optional(ConfigInput), ...optionalSettings },
  { additionalProperties: false },
);

export const ListDestinationsQuery = t.Object({
  offset: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100 })),
  workspace_id: t.Optional(t.String({ minLength: 1, description: "Default: the default workspace" })),
});

export const SaveDestinationQuery = t.Object({
  skip_test: t.Optional(t.Boolean({ description: "Save without the connection test" })),
});

export const DestinationScopeQuery = t.Object({
  workspace_id: t.Optional(t.String({ minLength: 1, description: "Answer 404 unless the destination belongs to this workspace" })),
});

export const UpdateDestinationQuery = t.Object({ ...SaveDestinationQuery.properties, ...DestinationScopeQuery.properties });

export const DestinationParams = t.Object({ id: t.String({ minLength: 1 }) });

export const DestinationData = t.Object({
  id: t.String(),
  type: DestinationTypeSchema,
  name: t.Nullable(t.String()),
  enabled: t.Boolean(),
  privacy_mode: t.Boolean(),
  sampling_rate: t.Number(),
  regions: t.Array(Region),
  api_key_hashes: t.Nullable(t.Array(t.String())),
  filter_rules: t.Nullable(FilterRulesSchema),
  broadcast_generation_cost: t.Boolean(),
  broadcast_generation_identity: t.Boolean(),
  broadcast_generation_request_context: t.Boolean(),
  workspace_id: t.String(),
  created_at: t.String(),
  updated_at: t.String(),
  config: t.Record(t.String(), t.Unknown(), { description: "The type's config, defaults applied; secret values and header values masked" }),
});

export const DestinationResponse = t.Object({ data: DestinationData });
export const ListDestinationsResponse = t.Object({ data: t.Array(DestinationData), total_count: t.Integer() });
export const DeletedResponse = t.Object({ deleted: t.Literal(true) });

export type CreateDestinationInput = typeof CreateDestinationBody.static;
export type UpdateDestinationInput = typeof UpdateDestinationBody.static;
export type ListDestinationsInput = typeof ListDestinationsQuery.static;
export type FilterRulesInput = typeof FilterRulesSchema.static;
export type DestinationDataOut = typeof DestinationData.static;
