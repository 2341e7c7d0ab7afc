import { and, asc, eq, sql } from "drizzle-orm";
import { PresetWriteConflict } from "../preset-store";
import type { presets, presetVersions } from "../tables/presets-responses";
import type { EitherTable, Ordering } from "./shapes";

/** The conditions and orders of presets and their versions. */
export function presetQueries(p: EitherTable<typeof presets>, v: EitherTable<typeof presetVersions>, o: Ordering) {
  // equal updated_at (same millisecond): the preset whose designated version was written last comes first
  const lastWrite = sql`(select v.${o.inserted} from ${v} v where v.id = ${p.designatedVersionId})`;
  return {
    bySlug: (workspaceId: string, slug: string) => and(eq(p.workspaceId, workspaceId), eq(p.slug, slug)),
    listOrder: [o.descValue(p.updatedAt), o.descValue(lastWrite), o.ascText(p.id)],
    version: (presetId: string, version: number) => and(eq(v.presetId, presetId), eq(v.version, version)),
    versionOrder: [asc(v.version)],
  };
}

/**
 * Runs an append again when it collides on (workspace, slug) or (preset, version). Only a writer
 * that bypasses the store's write lock can make it collide; a retry then sees its row and takes
 * the next number. The third collision ends in PresetWriteConflict.
 */
export async function appendRetrying<T>(slug: string, isUniqueViolation: (err: unknown) => boolean, append: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await append();
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (attempt === 3) throw new PresetWriteConflict(slug);
    }
  }
}
