import { count, eq, max } from "drizzle-orm";
import { newPreset, newPresetVersion, presetVersionRecord } from "../columns";
import { appendRetrying, presetQueries } from "../queries/presets";
import type { NewPresetVersion, PresetRecord, PresetStore } from "../store";
import type { Db, SqliteWriter, WriteStep } from "./client";
import { order } from "./order";
import { presets, presetVersions } from "./schema";

const isUniqueViolation = (err: unknown): boolean => (err as { code?: unknown })?.code === "SQLITE_CONSTRAINT_UNIQUE";

export function sqlitePresetStore(db: Db, write: WriteStep, writer: SqliteWriter): PresetStore {
  const q = presetQueries(presets, presetVersions, order);
  const find = (workspaceId: string, slug: string): PresetRecord | undefined => db.select().from(presets).where(q.bySlug(workspaceId, slug)).get();

  // BEGIN IMMEDIATE takes the write lock before reading max(version), so a second writer
  // (another connection or process) waits and then reads the version this one wrote.
  const appendVersion = (input: NewPresetVersion) => {
    const { workspaceId, slug, now } = input;
    let preset = find(workspaceId, slug);
    if (!preset) {
      preset = newPreset(input);
      db.insert(presets).values(preset).run();
    }
    const last =
      db
        .select({ v: max(presetVersions.version) })
        .from(presetVersions)
        .where(eq(presetVersions.presetId, preset.id))
        .get()?.v ?? 0;
    const version = newPresetVersion(preset.id, last + 1, input);
    db.insert(presetVersions)
      .values({ ...version, config: JSON.stringify(version.config) })
      .run();
    const updated = db.update(presets).set({ designatedVersionId: version.id, updatedAt: now }).where(eq(presets.id, preset.id)).returning().get();
    return { preset: updated ?? preset, version };
  };

  return {
    appendVersion: (input) => appendRetrying(input.slug, isUniqueViolation, () => write(() => writer.atomic(() => appendVersion(input)))),
    find: async (workspaceId, slug) => find(workspaceId, slug),
    async list(workspaceId, offset, limit) {
      return db
        .select()
        .from(presets)
        .where(eq(presets.workspaceId, workspaceId))
        .orderBy(...q.listOrder)
        .limit(limit)
        .offset(offset)
        .all();
    },
    async count(workspaceId) {
      return db.select({ n: count() }).from(presets).where(eq(presets.workspaceId, workspaceId)).get()?.n ?? 0;
    },
    async getVersion(presetId, version) {
      const row = db.select().from(presetVersions).where(q.version(presetId, version)).get();
      return row ? presetVersionRecord(row) : undefined;
    },
    async getVersionById(id) {
      const row = db.select().from(presetVersions).where(eq(presetVersions.id, id)).get();
      return row ? presetVersionRecord(row) : undefined;
    },
    async listVersions(presetId, offset, limit) {
      return db
        .select()
        .from(presetVersions)
        .where(eq(presetVersions.presetId, presetId))
        .orderBy(...q.versionOrder)
        .limit(limit)
        .offset(offset)
        .all()
        .map(presetVersionRecord);
    },
    async countVersions(presetId) {
      return db.select({ n: count() }).from(presetVersions).where(eq(presetVersions.presetId, presetId)).get()?.n ?? 0;
    },
  };
}
