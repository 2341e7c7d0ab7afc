import { t } from "elysia";
import { AlertThresholdsField } from "../keys/alert-thresholds";
import { RateLimitData, RateLimitField } from "../keys/rate-limit";

export { PageQuery } from "../organization/model";

const SLUG_PATTERN = "^[a-z0-9]+(?:-[a-z0-9]+)*$";
const ProviderSort = t.Union([t.Literal("price"), t.Literal("throughput"), t.Literal("latency"), t.Literal("exacto")]);

/** Fields with no behaviour in this gateway: kept in the workspace's settings and echoed back. */
const settingsFields = {
  disabled_server_tools: t.Optional(t.Nullable(t.Array(t.String({ minLength: 1 }), { maxItems: 100 }))),
  io_logging_api_key_ids: t.Optional(t.Nullable(t.Array(t.Integer(), { maxItems: 1000 }))),
  io_logging_sampling_rate: t.Optional(t.Number({ minimum: 0.0001, maximum: 1 })),
  is_data_discount_logging_enabled: t.Optional(t.Boolean()),
  is_observability_broadcast_enabled: t.Optional(t.Boolean()),
  is_observability_io_logging_enabled: t.Optional(t.Boolean()),
};

export const SETTINGS_KEYS = Object.keys(settingsFields) as Array<keyof typeof settingsFields>;

const editable = {
  description: t.Optional(t.Nullable(t.String({ maxLength: 500 }))),
  default_text_model: t.Optional(t.Nullable(t.String({ minLength: 1, maxLength: 256 }))),
  default_image_model: t.Optional(t.Nullable(t.String({ minLength: 1, maxLength: 256 }))),
  default_provider_sort: t.Optional(t.Nullable(ProviderSort)),
  rate_limit: RateLimitField,
  /** https only (http too with security.allow_private_urls), public addresses only; checked when saved */
  webhook_url: t.Optional(
    t.Nullable(t.String({ minLength: 1, maxLength: 2048, description: "Default callback URL of the workspace's webhooks (https, public host)" })),
  ),
  ...settingsFields,
};

export const CreateWorkspaceBody = t.Object(
  { name: t.String({ minLength: 1, maxLength: 100 }), slug: t.String({ minLength: 1, maxLength: 50, pattern: SLUG_PATTERN }), ...editable },
  { additionalProperties: false },
);

export const UpdateWorkspaceBody = t.Object(
  {
    name: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
    slug: t.Optional(t.String({ minLength: 1, maxLength: 50, pattern: SLUG_PATTERN })),
    ...editable,
  },
  { additionalProperties: false },
);

export const WorkspaceParams = t.Object({ id: t.String({ minLength: 1 }) });
export const DeleteWorkspaceQuery = t.Object({ confirm_default_workspace_deletion: t.Optional(t.Boolean()) });

export const WorkspaceData = t.Object({
  id: t.String(),
  name: t.String(),
  slug: t.String(),
  description: t.Nullable(t.String()),
  created_at: t.String(),
  updated_at: t.Nullable(t.String()),
  created_by: t.Nullable(t.String()),
  default_guardrail_id: t.String(),
  default_text_model: t.Nullable(t.String()),
  default_image_model: t.Nullable(t.String()),
  default_provider_sort: t.Nullable(t.String()),
  rate_limit: RateLimitData,
  webhook_url: t.Nullable(t.String()),
  disabled_server_tools: t.Nullable(t.Array(t.String())),
  io_logging_api_key_ids: t.Nullable(t.Array(t.Integer())),
  io_logging_sampling_rate: t.Number(),
  is_data_discount_logging_enabled: t.Boolean(),
  is_observability_broadcast_enabled: t.Boolean(),
  is_observability_io_logging_enabled: t.Boolean(),
});

export const WorkspaceResponse = t.Object({ data: WorkspaceData });
/** the request carries nothing: an empty object or no body at all */
export const WebhookSecretBody = t.Optional(t.Object({}, { additionalProperties: false }));
/** the only answer that ever carries the secret */
export const WebhookSecretResponse = t.Object({
  data: t.Object({ secret: t.String({ description: "whsec_ followed by 32 random bytes in base64; shown once" }) }),
});
export const ListWorkspacesResponse = t.Object({ data: t.Array(WorkspaceData), total_count: t.Integer() });
export const DeletedResponse = t.Object({ deleted: t.Literal(true) });

export const MemberData = t.Object({
  id: t.String(),
  workspace_id: t.String(),
  user_id: t.String(),
  role: t.Union([t.Literal("admin"), t.Literal("member")]),
  created_at: t.String(),
});

export const UserIdsBody = t.Object({ user_ids: t.Array(t.String({ minLength: 1 }), { minItems: 1, maxItems: 100 }) }, { additionalProperties: false });

export const ListMembersResponse = t.Object({ data: t.Array(MemberData), total_count: t.Integer() });
export const AddMembersResponse = t.Object({ added_count: t.Integer(), data: t.Array(MemberData) });
export const RemoveMembersResponse = t.Object({ removed_count: t.Integer() });

export type CreateWorkspaceInput = typeof CreateWorkspaceBody.static;
export type UpdateWorkspaceInput = typeof UpdateWorkspaceBody.static;
export type WorkspaceDataOut = typeof WorkspaceData.static;
export type MemberDataOut = typeof MemberData.static;

export const BudgetIntervalSchema = t.UnionEnum(["daily", "weekly", "monthly", "lifetime"]);
export const BudgetParams = t.Object({ id: t.String({ minLength: 1 }), interval: BudgetIntervalSchema });

// nano-dollars are JS numbers: past ~$9M they would no longer be exact integers
export const MAX_BUDGET_USD = 9_000_000;

export const PutBudgetBody = t.Object(
  {
    limit_usd: t.Number({ minimum: 0, maximum: MAX_BUDGET_USD }),
    include_byok_in_budgets: t.Optional(t.Boolean()),
    alert_thresholds: AlertThresholdsField,
  },
  { additionalProperties: false },
);

export const BudgetData = t.Object({
  id: t.String(),
  workspace_id: t.String(),
  limit_usd: t.Number(),
  reset_interval: t.Nullable(t.UnionEnum(["daily", "weekly", "monthly"])),
  alert_thresholds: t.Nullable(t.Array(t.Number())),
  created_at: t.String(),
  updated_at: t.String(),
});

export const BudgetResponse = t.Object({ data: BudgetData, include_byok_in_budgets: t.Boolean() });
export const ListBudgetsResponse = t.Object({ data: t.Array(BudgetData), include_byok_in_budgets: t.Boolean() });

export type PutBudgetInput = typeof PutBudgetBody.static;
export type BudgetDataOut = typeof BudgetData.static;
