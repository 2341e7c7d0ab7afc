import { type Static, t } from "elysia";
import { BUILTIN_SLUGS } from "../../gateway/guardrails/builtins";
import { MAX_PATTERN_LENGTH } from "../../gateway/guardrails/custom-pattern";

/** OpenRouter's Guardrail objects and requests (`@openrouter/sdk` 1.3.19 `models/guardrail.js`, `createguardrailrequest.js`, ...). */

const Action = t.Union([t.Literal("redact"), t.Literal("block"), t.Literal("flag")]);
const ScanScope = t.Union([t.Literal("user_only"), t.Literal("all_messages")]);
const BuiltinSlug = t.Union([
  t.Literal("email"),
  t.Literal("phone"),
  t.Literal("ssn"),
  t.Literal("credit-card"),
  t.Literal("ip-address"),
  t.Literal("secrets"),
  t.Literal("person-name"),
  t.Literal("address"),
  t.Literal("regex-prompt-injection"),
]) satisfies { static: (typeof BUILTIN_SLUGS)[number] };
const Interval = t.Union([t.Literal("daily"), t.Literal("weekly"), t.Literal("monthly")]);
const DataRegion = t.Union([t.Literal("global"), t.Literal("europe"), t.Literal("us")]);

/** A list that is null or holds something: [] is refused (OpenRouter's minItems 1). */
const NamesOrNull = t.Optional(t.Nullable(t.Array(t.String({ minLength: 1, maxLength: 256 }), { minItems: 1, maxItems: 1000 })));
const SwitchOrNull = t.Optional(t.Nullable(t.Boolean()));

const BuiltinInput = t.Object(
  {
    slug: BuiltinSlug,
    action: Action,
    /** read-only, system-assigned: a label sent is ignored */
    label: t.Optional(t.String({ maxLength: 100 })),
    scan_scope: t.Optional(ScanScope),
  },
  { additionalProperties: false },
);

const CustomFilter = t.Object(
  {
    pattern: t.String({
      minLength: 1,
      maxLength: MAX_PATTERN_LENGTH,
      description: "JavaScript regex; lookaround, backreferences and nested quantifiers are refused",
    }),
    action: Action,
    label: t.Optional(t.Nullable(t.String({ maxLength: 100 }))),
  },
  { additionalProperties: false },
);

/** The policy fields create and update share. */
const ruleFields = {
  allowed_models: NamesOrNull,
  ignored_models: NamesOrNull,
  allowed_providers: NamesOrNull,
  ignored_providers: NamesOrNull,
  enforce_zdr: SwitchOrNull,
  enforce_zdr_anthropic: SwitchOrNull,
  enforce_zdr_openai: SwitchOrNull,
  enforce_zdr_google: SwitchOrNull,
  enforce_zdr_xai: SwitchOrNull,
  enforce_zdr_other: SwitchOrNull,
  enable_free_model_publication: SwitchOrNull,
  enable_free_model_training: SwitchOrNull,
  enable_paid_model_training: SwitchOrNull,
  allowed_data_regions: t.Optional(t.Nullable(t.Array(DataRegion, { minItems: 1, maxItems: 3 }))),
  content_filter_builtins: t.Optional(t.Nullable(t.Array(BuiltinInput, { maxItems: BUILTIN_SLUGS.length * 3 }))),
  content_filters: t.Optional(t.Nullable(t.Array(CustomFilter, { maxItems: 100 }))),
};

const editable = {
  description: t.Optional(t.Nullable(t.String({ maxLength: 1000 }))),
  limit_usd: t.Optional(t.Nullable(t.Number({ minimum: 0, maximum: 1e9 }))),
  reset_interval: t.Optional(t.Nullable(Interval)),
  include_byok_in_budgets: t.Optional(t.Boolean()),
  ...ruleFields,
};

export const CreateGuardrailBody = t.Object(
  { name: t.String({ minLength: 1, maxLength: 200 }), workspace_id: t.Optional(t.String({ minLength: 1, maxLength: 128 })), ...editable },
  { additionalProperties: false },
);

export const UpdateGuardrailBody = t.Object({ name: t.Optional(t.String({ minLength: 1, maxLength: 200 })), ...editable }, { additionalProperties: false });

export type CreateGuardrailInput = Static<typeof CreateGuardrailBody>;
export type UpdateGuardrailInput = Static<typeof UpdateGuardrailBody>;

const BuiltinOut = t.Object({ slug: BuiltinSlug, action: Action, label: t.String(), scan_scope: t.Optional(ScanScope) });
const CustomOut = t.Object({ pattern: t.String(), action: Action, label: t.Nullable(t.String()) });

export const GuardrailData = t.Object({
  id: t.String(),
  name: t.String(),
  description: t.Nullable(t.String()),
  workspace_id: t.Nullable(t.String()),
  limit_usd: t.Nullable(t.Number()),
  reset_interval: t.Nullable(Interval),
  include_byok_in_budgets: t.Boolean(),
  allowed_models: t.Nullable(t.Array(t.String())),
  ignored_models: t.Nullable(t.Array(t.String())),
  allowed_providers: t.Nullable(t.Array(t.String())),
  ignored_providers: t.Nullable(t.Array(t.String())),
  enforce_zdr: t.Nullable(t.Boolean()),
  enforce_zdr_anthropic: t.Nullable(t.Boolean()),
  enforce_zdr_openai: t.Nullable(t.Boolean()),
  enforce_zdr_google: t.Nullable(t.Boolean()),
  enforce_zdr_xai: t.Nullable(t.Boolean()),
  enforce_zdr_other: t.Nullable(t.Boolean()),
  enable_free_model_publication: t.Nullable(t.Boolean()),
  enable_free_model_training: t.Nullable(t.Boolean()),
  enable_paid_model_training: t.Nullable(t.Boolean()),
  allowed_data_regions: t.Nullable(t.Array(DataRegion)),
  content_filter_builtins: t.Nullable(t.Array(BuiltinOut)),
  content_filters: t.Nullable(t.Array(CustomOut)),
  created_at: t.String(),
  updated_at: t.Nullable(t.String()),
});

export type GuardrailDataOut = Static<typeof GuardrailData>;

export const GuardrailResponse = t.Object({ data: GuardrailData });
export const ListGuardrailsResponse = t.Object({ data: t.Array(GuardrailData), total_count: t.Integer() });
export const DeletedResponse = t.Object({ deleted: t.Literal(true) });

export const GuardrailParams = t.Object({ id: t.String({ minLength: 1, maxLength: 128 }) });
export const PageQuery = t.Object({
  offset: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100 })),
});
export const ListQuery = t.Object({ ...PageQuery.properties, workspace_id: t.Optional(t.String({ minLength: 1, maxLength: 128 })) });

export const KeyHashesBody = t.Object(
  { key_hashes: t.Array(t.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: 1000 }) },
  { additionalProperties: false },
);
export const MemberIdsBody = t.Object(
  { member_user_ids: t.Array(t.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: 1000 }) },
  { additionalProperties: false },
);

export const KeyAssignmentData = t.Object({
  id: t.String(),
  key_hash: t.String(),
  key_name: t.String(),
  key_label: t.String(),
  guardrail_id: t.String(),
  assigned_by: t.Nullable(t.String()),
  created_at: t.String(),
});
export const MemberAssignmentData = t.Object({
  id: t.String(),
  user_id: t.String(),
  organization_id: t.String(),
  guardrail_id: t.String(),
  assigned_by: t.Nullable(t.String()),
  created_at: t.String(),
});

export const KeyAssignmentsResponse = t.Object({ data: t.Array(KeyAssignmentData), total_count: t.Integer() });
export const MemberAssignmentsResponse = t.Object({ data: t.Array(MemberAssignmentData), total_count: t.Integer() });
export const AssignedResponse = t.Object({ assigned_count: t.Integer() });
export const UnassignedResponse = t.Object({ unassigned_count: t.Integer() });
