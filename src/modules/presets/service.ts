import { changesBetween } from "../../audit/changes";
import type { ChangeOrigin } from "../../audit/origin";
import { recordChange } from "../../audit/record";
import { badRequest, conflict, notFound } from "../../errors";
import type { InboundFormat } from "../../gateway/codecs";
import { extractPreset } from "../../gateway/presets/extract-config";
import type { Principal } from "../../http/principal";
import { type PresetRecord, type PresetVersionRecord, PresetWriteConflict, type Store } from "../../store/store";
import { isoOrNull, isoTime } from "../../time";
import type { PageInput, PresetDataOut, PresetVersionDataOut, PresetWithVersionOut } from "./model";
import { assertPresetSlug } from "./slug";

export type PresetServiceDeps = { store: Store; clock: () => number };

export function renderPreset(preset: PresetRecord): PresetDataOut {
  return {
    id: preset.id,
    slug: preset.slug,
    name: preset.name,
    description: preset.description,
    status: preset.status,
    status_updated_at: isoOrNull(preset.statusUpdatedAt),
    designated_version_id: preset.designatedVersionId,
    creator_user_id: preset.creatorUserId,
    workspace_id: preset.workspaceId,
    created_at: isoTime(preset.createdAt),
    updated_at: isoTime(preset.updatedAt),
  };
}

export function renderVersion(version: PresetVersionRecord): PresetVersionDataOut {
  return {
    id: version.id,
    preset_id: version.presetId,
    version: version.version,
    config: version.config,
    system_prompt: version.systemPrompt,
    creator_id: version.creatorId ?? "",
    created_at: isoTime(version.createdAt),
    updated_at: isoTime(version.updatedAt),
  };
}

async function withDesignated(store: Store, preset: PresetRecord, designated?: PresetVersionRecord): Promise<PresetWithVersionOut> {
  const version = designated ?? (preset.designatedVersionId ? await store.presets.getVersionById(preset.designatedVersionId) : undefined);
  return { ...renderPreset(preset), designated_version: version ? renderVersion(version) : null };
}

const page = (query: PageInput) => ({ offset: query.offset ?? 0, limit: query.limit ?? 50 });

/** The preset of the workspace (the caller's), or 404. */
export async function findPreset(store: Store, workspaceId: string, slug: string): Promise<PresetRecord> {
  assertPresetSlug(slug);
  const preset = await store.presets.find(workspaceId, slug);
  if (!preset) throw notFound(`Preset not found: ${slug}`);
  return preset;
}

/** Creates the preset when absent, else adds a version and designates it. */
export async function createPresetVersion(
  deps: PresetServiceDeps,
  origin: ChangeOrigin,
  principal: Principal,
  slug: string,
  format: InboundFormat,
  body: Record<string, unknown>,
): Promise<PresetWithVersionOut> {
  assertPresetSlug(slug);
  const { config, systemPrompt } = extractPreset(format, body);
  // the version's creator: the key's user when it has one, else the key itself (its public hash)
  const creatorUserId = principal.user?.id ?? principal.key.creatorUserId;
  const now = deps.clock();
  const { preset, version } = await deps.store
    .transaction(async (tx) => {
      const previous = await tx.presets.find(principal.workspace.id, slug);
      const previousVersion = previous?.designatedVersionId ? await tx.presets.getVersionById(previous.designatedVersionId) : undefined;
      const made = await tx.presets.appendVersion({
        workspaceId: principal.workspace.id,
        slug,
        config,
        systemPrompt,
        format,
        creatorUserId,
        creatorId: creatorUserId ?? principal.key.hash,
        now,
      });
      const shown = (v: PresetVersionRecord | undefined) => (v ? { version: v.version, config: v.config, system_prompt: v.systemPrompt } : null);
      await recordChange(tx, now, origin, {
        action: previous ? "preset.update" : "preset.create",
        target: { type: "preset", id: made.preset.id },
        workspaceId: made.preset.workspaceId,
        changes: changesBetween(previous ? { slug, ...shown(previousVersion) } : null, { slug, ...shown(made.version) }),
      });
      return made;
    })
    .catch(busyAsConflict);
  return withDesignated(deps.store, preset, version);
}

/** The store gave up writing the version: another writer kept colliding with it, so the client may retry. */
function busyAsConflict(err: unknown): never {
  if (err instanceof PresetWriteConflict) throw conflict(`Preset '${err.slug}' is being changed concurrently; retry`);
  throw err;
}

export async function listPresets(deps: PresetServiceDeps, workspaceId: string, query: PageInput) {
  const { offset, limit } = page(query);
  const presets = await deps.store.presets.list(workspaceId, offset, limit);
  return { data: presets.map(renderPreset), total_count: await deps.store.presets.count(workspaceId) };
}

export async function getPreset(deps: PresetServiceDeps, workspaceId: string, slug: string): Promise<PresetWithVersionOut> {
  return withDesignated(deps.store, await findPreset(deps.store, workspaceId, slug));
}

export async function listPresetVersions(deps: PresetServiceDeps, workspaceId: string, slug: string, query: PageInput) {
  const preset = await findPreset(deps.store, workspaceId, slug);
  const { offset, limit } = page(query);
  const versions = await deps.store.presets.listVersions(preset.id, offset, limit);
  return { data: versions.map(renderVersion), total_count: await deps.store.presets.countVersions(preset.id) };
}

export async function getPresetVersion(deps: PresetServiceDeps, workspaceId: string, slug: string, versionParam: string): Promise<PresetVersionDataOut> {
  if (!/^[1-9]\d{0,8}$/.test(versionParam))
    throw badRequest(`Invalid path parameter 'version': a positive integer, got '${versionParam}'`, { field: "version" });
  const preset = await findPreset(deps.store, workspaceId, slug);
  const version = await deps.store.presets.getVersion(preset.id, Number(versionParam));
  if (!version) throw notFound(`Preset version not found: ${slug} version ${versionParam}`);
  return renderVersion(version);
}
