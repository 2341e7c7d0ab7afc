import { and, asc, count, desc, eq, max, sql } from "drizzle-orm";
import type { Db, SqliteWriter, WriteStep } from "./client";
import { presets, presetVersions } from "./schema";
import { newPreset, newPresetVersion } from "../columns";
import { PresetWriteConflict, type PresetRecord, type PresetStore, type PresetVersionRecord } from "../store";

type VersionRow = typeof presetVersions.$inferSelect;

const toVersion = (row: VersionRow): PresetVersionRecord => ({ ...row, config: JSON.parse(row.config) as Record<string, unknown> });

const isUniqueViolation = (err: unknown): boolean => (err as { code?: unknown })?.code === "SQLITE_CONSTRAINT_UNIQUE";

export function sqlitePresetStore(db: Db, write: WriteStep, writer: SqliteWriter): PresetStore {
  const find = (workspaceId: string, slug: string): PresetRecord | undefined =>
    db.select().from(presets).where(and(eq(presets.workspaceId, workspaceId), eq(presets.slug, slug))).get();

  // BEGIN IMMEDIATE takes the write lock before reading max(version), so a second writer
  // (another connection or process) waits and then reads the version this one wrote.
  const appendVersion = (input: Parameters<PresetStore["appendVersion"]>[0]) => {
    const { workspaceId, slug, now } = input;
    let preset = find(workspaceId, slug);
    if (!preset) {
      preset = newPreset(input);
      db.insert(presets).values(preset).run();
    }
    const last = db.select({ v: max(presetVersions.version) }).from(presetVersions).where(eq(presetVersions.presetId, preset.id)).get()?.v ?? 0;
    const version = newPresetVersion(preset.id, last + 1, input);
    db.insert(presetVersions).values({ ...version, config: JSON.stringify(version.config) }).run();
    const updated = db.update(presets).set({ designatedVersionId: version.id, updatedAt: now }).where(eq(presets.id, preset.id)).returning().get();
    return { preset: updated ?? preset, version };
  };

  return {
    appendVersion: (input) =>
      write(() => {
        // Only a writer that bypasses BEGIN IMMEDIATE could collide on (workspace, slug) or
        // (preset, version); a retry then sees its row and takes the next number.
        for (let attempt = 1; ; attempt++) {
          try {
            return writer.atomic(() => appendVersion(input));
          } catch (err) {
            if (!isUniqueViolation(err)) throw err;
            if (attempt === 3) throw new PresetWriteConflict(input.slug);
          }
        }
      }),
    find: async (workspaceId, slug) => find(workspaceId, slug),
    async list(workspaceId, offset, limit) {
      // equal updated_at (same millisecond): the preset whose designated version was written last comes first
      const lastWrite = sql`(select v.rowid from ${presetVersions} v where v.id = ${presets.designatedVersionId})`;
      return db
        .select()
        .from(presets)
        .where(eq(presets.workspaceId, workspaceId))
        .orderBy(desc(presets.updatedAt), desc(lastWrite), asc(presets.id))
        .limit(limit)
        .offset(offset)
        .all();
    },
    async count(workspaceId) {
      return db.select({ n: count() }).from(presets).where(eq(presets.workspaceId, workspaceId)).get()?.n ?? 0;
    },
    async getVersion(presetId, version) {
      const row = db.select().from(presetVersions).where(and(eq(presetVersions.presetId, presetId), eq(presetVersions.version, version))).get();
      return row ? toVersion(row) : undefined;
    },
    async getVersionById(id) {
      const row = db.select().from(presetVersions).where(eq(presetVersions.id, id)).get();
      return row ? toVersion(row) : undefined;
    },
    async listVersions(presetId, offset, limit) {
      return db.select().from(presetVersions).where(eq(presetVersions.presetId, presetId)).orderBy(asc(presetVersions.version)).limit(limit).offset(offset).all().map(toVersion);
    },
    async countVersions(presetId) {
      return db.select({ n: count() }).from(presetVersions).where(eq(presetVersions.presetId, presetId)).get()?.n ?? 0;
    },
  };
}
