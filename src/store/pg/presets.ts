import { count, eq, max } from "drizzle-orm";
import { newPreset, newPresetVersion, presetVersionRecord } from "../columns";
import { appendRetrying, presetQueries } from "../queries/presets";
import type { NewPresetVersion, PresetRecord, PresetStore, PresetVersionRecord } from "../store";
import { type Conn, type Db, isUniqueViolation, lockedTransaction } from "./client";
import { order } from "./order";
import { presets, presetVersions } from "./schema";

const q = presetQueries(presets, presetVersions, order);

async function findIn(db: Db, workspaceId: string, slug: string): Promise<PresetRecord | undefined> {
  const [row] = await db.select().from(presets).where(q.bySlug(workspaceId, slug));
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
  const [last] = await db
    .select({ v: max(presetVersions.version) })
    .from(presetVersions)
    .where(eq(presetVersions.presetId, preset.id));
  const version = newPresetVersion(preset.id, (last?.v ?? 0) + 1, input);
  await db.insert(presetVersions).values({ ...version, config: JSON.stringify(version.config) });
  const [updated] = await db.update(presets).set({ designatedVersionId: version.id, updatedAt: now }).where(eq(presets.id, preset.id)).returning();
  return { preset: updated ?? preset, version };
}

export function pgPresetStore(conn: Conn): PresetStore {
  const { db } = conn;
  return {
    appendVersion: (input) => appendRetrying(input.slug, isUniqueViolation, () => lockedTransaction(conn, (tx) => append(tx, input))),
    find: (workspaceId, slug) => findIn(db, workspaceId, slug),
    async list(workspaceId, offset, limit) {
      return await db
        .select()
        .from(presets)
        .where(eq(presets.workspaceId, workspaceId))
        .orderBy(...q.listOrder)
        .limit(limit)
        .offset(offset);
    },
    async count(workspaceId) {
      const [row] = await db.select({ n: count() }).from(presets).where(eq(presets.workspaceId, workspaceId));
      return row?.n ?? 0;
    },
    async getVersion(presetId, version) {
      const [row] = await db.select().from(presetVersions).where(q.version(presetId, version));
      return row ? presetVersionRecord(row) : undefined;
    },
    async getVersionById(id) {
      const [row] = await db.select().from(presetVersions).where(eq(presetVersions.id, id));
      return row ? presetVersionRecord(row) : undefined;
    },
    async listVersions(presetId, offset, limit) {
      const rows = await db
        .select()
        .from(presetVersions)
        .where(eq(presetVersions.presetId, presetId))
        .orderBy(...q.versionOrder)
        .limit(limit)
        .offset(offset);
      return rows.map(presetVersionRecord);
    },
    async countVersions(presetId) {
      const [row] = await db.select({ n: count() }).from(presetVersions).where(eq(presetVersions.presetId, presetId));
      return row?.n ?? 0;
    },
  };
}
