import { t } from "elysia";

const IdList = (opts: { minItems?: number }) => t.Optional(t.Nullable(t.Array(t.String({ minLength: 1 }), { maxItems: 100, ...opts })));

const flags = {
  name: t.Optional(t.Nullable(t.String({ maxLength: 255 }))),
  disabled: t.Optional(t.Boolean()),
  is_fallback: t.Optional(t.Boolean()),
  is_required: t.Optional(t.Boolean()),
  is_byok_only: t.Optional(t.Boolean()),
  declared_zdr: t.Optional(t.Nullable(t.Boolean())),
  allowed_models: IdList({}),
  allowed_user_ids: IdList({}),
  allowed_api_key_hashes: IdList({ minItems: 1 }),
};

/** A provider API key is short; the bound keeps a mistaken paste of a whole file out of the database. */
const SecretKey = t.String({ minLength: 1, maxLength: 8192 });

export const CreateByokBody = t.Object(
  { provider: t.String({ minLength: 1, maxLength: 100 }), key: SecretKey, workspace_id: t.Optional(t.String({ minLength: 1 })), ...flags },
  { additionalProperties: false },
);

export const UpdateByokBody = t.Object({ key: t.Optional(SecretKey), ...flags }, { additionalProperties: false });

export const ListByokQuery = t.Object({
  offset: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100 })),
  workspace_id: t.Optional(t.String({ minLength: 1 })),
  provider: t.Optional(t.String({ minLength: 1 })),
});

export const ByokParams = t.Object({ id: t.String({ minLength: 1 }) });

export const ByokData = t.Object({
  id: t.String(),
  provider: t.String(),
  name: t.Nullable(t.String()),
  label: t.String(),
  disabled: t.Boolean(),
  is_fallback: t.Boolean(),
  is_required: t.Boolean(),
  is_byok_only: t.Boolean(),
  declared_zdr: t.Nullable(t.Boolean()),
  allowed_models: t.Nullable(t.Array(t.String())),
  allowed_user_ids: t.Nullable(t.Array(t.String())),
  allowed_api_key_hashes: t.Nullable(t.Array(t.String())),
  sort_order: t.Integer(),
  workspace_id: t.Nullable(t.String()),
  created_at: t.String(),
});

export const ByokResponse = t.Object({ data: ByokData });
export const ListByokResponse = t.Object({ data: t.Array(ByokData), total_count: t.Integer() });
export const DeletedResponse = t.Object({ deleted: t.Literal(true) });

export type CreateByokInput = typeof CreateByokBody.static;
export type UpdateByokInput = typeof UpdateByokBody.static;
export type ListByokInput = typeof ListByokQuery.static;
export type ByokDataOut = typeof ByokData.static;
