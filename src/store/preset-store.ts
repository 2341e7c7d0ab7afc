/** Versioned presets of a workspace. */

export type PresetStatus = "active" | "disabled" | "archived";

export type PresetRecord = {
  id: string;
  workspaceId: string;
  slug: string;
  name: string;
  description: string | null;
  status: PresetStatus;
  statusUpdatedAt: number | null;
  designatedVersionId: string | null;
  creatorUserId: string | null;
  createdAt: number;
  updatedAt: number;
};

/** The inference endpoints a preset version can be created through, named as the api kinds. */
export const PRESET_FORMATS = ["openai-chat", "openai-responses", "anthropic-messages"] as const;
export type PresetFormat = (typeof PRESET_FORMATS)[number];

export type PresetVersionRecord = {
  id: string;
  presetId: string;
  version: number;
  /** in the field names of `format` */
  config: Record<string, unknown>;
  systemPrompt: string | null;
  /** the endpoint that created the version; null for versions written before the format was recorded */
  format: PresetFormat | null;
  creatorId: string | null;
  createdAt: number;
  updatedAt: number;
};

export type NewPresetVersion = {
  workspaceId: string;
  slug: string;
  config: Record<string, unknown>;
  systemPrompt: string | null;
  format: PresetFormat;
  creatorUserId: string | null;
  creatorId: string | null;
  now: number;
};

/**
 * appendVersion gave up: its writes kept colliding on (workspace, slug) or (preset, version), as
 * only a writer that bypasses the store's write lock can make them. The caller says what that
 * means to its client.
 */
export class PresetWriteConflict extends Error {
  override name = "PresetWriteConflict";
  constructor(readonly slug: string) {
    super(`Preset '${slug}' is being changed concurrently`);
  }
}

export interface PresetStore {
  /**
   * In one write transaction: creates the preset (status active) when the workspace has no
   * preset with this slug, appends version max+1 and designates it. Racing callers get
   * consecutive versions. Rejects with PresetWriteConflict when its writes keep colliding.
   */
  appendVersion(input: NewPresetVersion): Promise<{ preset: PresetRecord; version: PresetVersionRecord }>;
  find(workspaceId: string, slug: string): Promise<PresetRecord | undefined>;
  /** most recently updated first */
  list(workspaceId: string, offset: number, limit: number): Promise<PresetRecord[]>;
  count(workspaceId: string): Promise<number>;
  getVersion(presetId: string, version: number): Promise<PresetVersionRecord | undefined>;
  getVersionById(id: string): Promise<PresetVersionRecord | undefined>;
  /** version ascending */
  listVersions(presetId: string, offset: number, limit: number): Promise<PresetVersionRecord[]>;
  countVersions(presetId: string): Promise<number>;
}
