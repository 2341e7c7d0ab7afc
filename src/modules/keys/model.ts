import { t } from "elysia";
import { AlertThresholdsField } from "./alert-thresholds";
import { RateLimitData, RateLimitField } from "./rate-limit";

const LimitReset = t.Union([t.Literal("daily"), t.Literal("weekly"), t.Literal("monthly")]);

const ExpiresAtField = t.Optional(t.Nullable(t.String({ description: "UTC ISO 8601 date-time with seconds, in the future" })));

export const CreateKeyBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 256 }),
  limit: t.Optional(t.Nullable(t.Number({ minimum: 0 }))),
  limit_reset: t.Optional(t.Nullable(LimitReset)),
  include_byok_in_limit: t.Optional(t.Boolean()),
  rate_limit: RateLimitField,
  alert_thresholds: AlertThresholdsField,
  expires_at: ExpiresAtField,
  workspace_id: t.Optional(t.String()),
  creator_user_id: t.Optional(t.Nullable(t.String())),
  external: t.Optional(t.Object({ user: t.String({ minLength: 1 }), api_key: t.Optional(t.String({ minLength: 32 })) })),
});

const { creator_user_id: _creator, external: _external, ...ownKeyFields } = CreateKeyBody.properties;

/** A key the signed-in user creates for themselves (the console's form): no other creator, no external user. */
export const CreateOwnKeyBody = t.Object(ownKeyFields, { additionalProperties: false });

export const UpdateKeyBody = t.Object(
  {
    name: t.Optional(t.String({ minLength: 1, maxLength: 256 })),
    disabled: t.Optional(t.Boolean()),
    limit: t.Optional(t.Nullable(t.Number({ minimum: 0 }))),
    limit_reset: t.Optional(t.Nullable(LimitReset)),
    include_byok_in_limit: t.Optional(t.Boolean()),
    rate_limit: RateLimitField,
    alert_thresholds: AlertThresholdsField,
  },
  { additionalProperties: false },
);

/** The console's update, which also moves a key's expiry: the public PATCH /keys/{hash} has none, as OpenRouter's. */
export const UpdateKeyWithExpiryBody = t.Object({ ...UpdateKeyBody.properties, expires_at: ExpiresAtField }, { additionalProperties: false });

export const ListKeysQuery = t.Object({
  include_disabled: t.Optional(t.Boolean()),
  offset: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  workspace_id: t.Optional(t.String()),
});

export const HashParams = t.Object({ hash: t.String({ minLength: 1 }) });

/** A day, as OpenRouter's default; 0 retires the old secret at once. At most 30 days. */
export const DEFAULT_GRACE_SECONDS = 86_400;

export const RotateKeyBody = t.Object(
  {
    grace_seconds: t.Optional(
      t.Integer({
        minimum: 0,
        maximum: 30 * 86_400,
        default: DEFAULT_GRACE_SECONDS,
        description: "how long the old secret keeps working (seconds); 0: not at all",
      }),
    ),
  },
  { additionalProperties: false },
);

const spendFields = {
  usage: t.Number(),
  usage_daily: t.Number(),
  usage_weekly: t.Number(),
  usage_monthly: t.Number(),
  byok_usage: t.Number(),
  byok_usage_daily: t.Number(),
  byok_usage_weekly: t.Number(),
  byok_usage_monthly: t.Number(),
};

export const KeyData = t.Object({
  hash: t.String(),
  name: t.String(),
  label: t.String(),
  disabled: t.Boolean(),
  limit: t.Nullable(t.Number()),
  limit_remaining: t.Nullable(t.Number()),
  limit_reset: t.Nullable(t.String()),
  include_byok_in_limit: t.Boolean(),
  rate_limit: RateLimitData,
  alert_thresholds: t.Nullable(t.Array(t.Number())),
  ...spendFields,
  created_at: t.String(),
  updated_at: t.Nullable(t.String()),
  expires_at: t.Nullable(t.String()),
  creator_user_id: t.Nullable(t.String()),
  external_user: t.Nullable(t.String()),
  workspace_id: t.String(),
});

export const CurrentKeyData = t.Object({
  label: t.String(),
  limit: t.Nullable(t.Number()),
  limit_remaining: t.Nullable(t.Number()),
  limit_reset: t.Nullable(t.String()),
  include_byok_in_limit: t.Boolean(),
  ...spendFields,
  is_free_tier: t.Boolean(),
  is_management_key: t.Boolean(),
  is_provisioning_key: t.Boolean(),
  creator_user_id: t.Nullable(t.String()),
  organization_id: t.Nullable(t.String()),
  workspace_id: t.Nullable(t.String()),
  expires_at: t.Nullable(t.String()),
  allowed_data_regions: t.Array(t.Union([t.Literal("global"), t.Literal("europe"), t.Literal("us")])),
  free_model_daily_requests: t.Object({ limit: t.Number(), remaining: t.Number(), used: t.Number() }),
  rate_limit: t.Object({ requests: t.Number(), interval: t.String(), note: t.String() }),
});

export const KeyResponse = t.Object({ data: KeyData });
export const CreateKeyResponse = t.Object({ data: KeyData, key: t.String() });
export const ListKeysResponse = t.Object({ data: t.Array(KeyData) });
export const CurrentKeyResponse = t.Object({ data: CurrentKeyData });
export const DeletedResponse = t.Object({ deleted: t.Literal(true) });

export type CreateKeyInput = typeof CreateKeyBody.static;
export type UpdateKeyWithExpiryInput = typeof UpdateKeyWithExpiryBody.static;
export type RotateKeyInput = typeof RotateKeyBody.static;
export type KeyDataOut = typeof KeyData.static;
export type CurrentKeyDataOut = typeof CurrentKeyData.static;
