import { and, desc, eq, sql } from "drizzle-orm";
import type { Conn } from "./client";
import { videoJobs } from "./schema";
import type { VideoJobStore } from "../video-job-store";
import { videoJobFromRow, videoJobToRow, videoPatchColumns } from "../video-job-rows";

export function pgVideoJobStore({ db }: Conn): VideoJobStore {
  return {
    async create(job) {
      await db.insert(videoJobs).values(videoJobToRow(job));
    },
    async list(workspaceId, offset, limit) {
      const rows = await db.select().from(videoJobs).where(eq(videoJobs.workspaceId, workspaceId)).orderBy(desc(videoJobs.createdAt), sql`${videoJobs.id} collate "C" desc`).limit(limit).offset(offset);
      return rows.map(videoJobFromRow);
    },
    async get(id) {
      const [row] = await db.select().from(videoJobs).where(eq(videoJobs.id, id));
      return row ? videoJobFromRow(row) : undefined;
    },
    async update(id, version, patch, now) {
      const [row] = await db
        .update(videoJobs)
        .set({ ...videoPatchColumns(patch), version: sql`${videoJobs.version} + 1`, updatedAt: now })
        .where(and(eq(videoJobs.id, id), eq(videoJobs.version, version)))
        .returning();
      return row ? videoJobFromRow(row) : undefined;
    },
  };
}
