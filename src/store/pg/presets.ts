import { and, count, eq, max, sql } from "drizzle-orm";
import { isUniqueViolation, lockedTransaction, type Conn, type Db } from "./client";
import { ascText, descValue } from "./order";
import { presets, presetVersions } from "./schema";
import { newPreset, newPresetVersion } from "../columns";
import { PresetWriteConflict, type NewPresetVersion, type PresetRecord, type PresetStore, type PresetVersionRecord } from "../store";

type VersionRow = typeof presetVersions.$inferSelect;

const toVersion = ({ seq: _seq, ...row }: VersionRow): PresetVersionRecord => ({ ...row, config: JSON.parse(row.config) as Record<string, unknown> });

async function findIn(db: Db, workspaceId: string, slug: string): Promise<PresetRecord | undefined> {
  const [row] = await db.select().from(presets).where(and(eq(presets.workspaceId, workspaceId), eq(presets.slug, slug)));
  return row;
}

/** Runs under the transaction lock, so max(version) cannot change between the read and the insert. */
async function append(db: Db, input: NewPresetVersion): Promise<{ preset: PresetRecord; version: PresetVersionRecord }> {
  const { workspaceId, slug, now } = input;
  let preset = await findIn(db, workspaceId, slug);
  if (!preset) {
    preset = newPreset(input);
    await db.insert(presets).values(preset);
  }
  const [last] = await db.select({ v: max(presetVersions.version) }).from(presetVersions).where(eq(presetVersions.presetId, preset.id));
  const version = newPresetVersion(preset.id, (last?.v ?? 0) + 1, input);
  await db.insert(presetVersions).values({ ...version, config: JSON.stringify(version.config) });
  const [updated] = await db.update(presets).set({ designatedVersionId: version.id, updatedAt: now }).where(eq(presets.id, preset.id)).returning();
  return { preset: updated ?? preset, version };
}

export function pgPresetStore(conn: Conn): PresetStore {
  const { db } = conn;
  return {
    async appendVersion(input) {
      // Only a writer that bypasses the lock could collide on (workspace, slug) or (preset,
      // version); a retry then sees its row and takes the next number.
      for (let attempt = 1; ; attempt++) {
        try {
          return await lockedTransaction(conn, (tx) => append(tx, input));
        } catch (err) {
          if (!isUniqueViolation(err)) throw err;
          if (attempt === 3) throw new PresetWriteConflict(input.slug);
        }
      }
    },
    find: (workspaceId, slug) => findIn(db, workspaceId, slug),
    async list(workspaceId, offset, limit) {
      // equal updated_at (same millisecond): the preset whose designated version was written last comes first
      const lastWrite = sql`(select v.seq from ${presetVersions} v where v.id = ${presets.designatedVersionId})`;
      return await db
        .select()
        .from(presets)
        .where(eq(presets.workspaceId, workspaceId))
        .orderBy(descValue(presets.updatedAt), descValue(lastWrite), ascText(presets.id))
        .limit(limit)
        .offset(offset);
    },
    async count(workspaceId) {
      const [row] = await db.select({ n: count() }).from(presets).where(eq(presets.workspaceId, workspaceId));
      return row?.n ?? 0;
    },
    async getVersion(presetId, version) {
      const [row] = await db.select().from(presetVersions).where(and(eq(presetVersions.presetId, presetId), eq(presetVersions.version, version)));
      return row ? toVersion(row) : undefined;
    },
    async getVersionById(id) {
      const [row] = await db.select().from(presetVersions).where(eq(presetVersions.id, id));
      return row ? toVersion(row) : undefined;
    },
    async listVersions(presetId, offset, limit) {
      const rows = await db.select().from(presetVersions).where(eq(presetVersions.presetId, presetId)).orderBy(presetVersions.version).limit(limit).offset(offset);
      return rows.map(toVersion);
    },
    async countVersions(presetId) {
      const [row] = await db.select({ n: count() }).from(presetVersions).where(eq(presetVersions.presetId, presetId));
      return row?.n ?? 0;
    },
  };
}
