import { t } from "elysia";

export const SlugParams = t.Object({ slug: t.String({ minLength: 1 }) });
export const VersionParams = t.Object({ slug: t.String({ minLength: 1 }), version: t.String({ minLength: 1 }) });

export const PageQuery = t.Object({
  offset: t.Optional(t.Nullable(t.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 }))),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 50 })),
});

const PresetStatus = t.Union([t.Literal("active"), t.Literal("disabled"), t.Literal("archived")]);

const presetFields = {
  id: t.String(),
  slug: t.String(),
  name: t.String(),
  description: t.Nullable(t.String()),
  status: PresetStatus,
  status_updated_at: t.Nullable(t.String()),
  designated_version_id: t.Nullable(t.String()),
  creator_user_id: t.Nullable(t.String()),
  workspace_id: t.Nullable(t.String()),
  created_at: t.String(),
  updated_at: t.String(),
};

export const PresetData = t.Object(presetFields);

export const PresetVersionData = t.Object({
  id: t.String(),
  preset_id: t.String(),
  version: t.Integer(),
  config: t.Record(t.String(), t.Unknown()),
  system_prompt: t.Nullable(t.String()),
  creator_id: t.String(),
  created_at: t.String(),
  updated_at: t.String(),
});

export const PresetWithVersionData = t.Object({ ...presetFields, designated_version: t.Nullable(PresetVersionData) });

export const PresetResponse = t.Object({ data: PresetWithVersionData });
export const ListPresetsResponse = t.Object({ data: t.Array(PresetData), total_count: t.Integer() });
export const PresetVersionResponse = t.Object({ data: t.Nullable(PresetVersionData) });
export const ListPresetVersionsResponse = t.Object({ data: t.Array(t.Nullable(PresetVersionData)), total_count: t.Integer() });

export type PresetDataOut = typeof PresetData.static;
export type PresetVersionDataOut = typeof PresetVersionData.static;
export type PresetWithVersionOut = typeof PresetWithVersionData.static;
export type PageInput = typeof PageQuery.static;
