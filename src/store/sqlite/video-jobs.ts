import { and, desc, eq, sql } from "drizzle-orm";
import type { Db, WriteStep } from "./client";
import { videoJobs } from "./schema";
import type { VideoJobStore } from "../video-job-store";
import { videoJobFromRow, videoJobToRow, videoPatchColumns } from "../video-job-rows";

export function sqliteVideoJobStore(db: Db, write: WriteStep): VideoJobStore {
  return {
    create: (job) => write(() => void db.insert(videoJobs).values(videoJobToRow(job)).run()),
    async get(id) {
      const row = db.select().from(videoJobs).where(eq(videoJobs.id, id)).get();
      return row ? videoJobFromRow(row) : undefined;
    },
    async list(workspaceId, offset, limit) {
      const rows = db.select().from(videoJobs).where(eq(videoJobs.workspaceId, workspaceId)).orderBy(desc(videoJobs.createdAt), desc(videoJobs.id)).limit(limit).offset(offset).all();
      return rows.map(videoJobFromRow);
    },
    update: (id, version, patch, now) =>
      write(() => {
        const row = db
          .update(videoJobs)
          .set({ ...videoPatchColumns(patch), version: sql`${videoJobs.version} + 1`, updatedAt: now })
          .where(and(eq(videoJobs.id, id), eq(videoJobs.version, version)))
          .returning()
          .get();
        return row ? videoJobFromRow(row) : undefined;
      }),
  };
}
