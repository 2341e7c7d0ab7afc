import { asc, desc, eq, sql } from "drizzle-orm";
import { videoJobQueries } from "../queries/video-jobs";
import { videoJobFromRow, videoJobToRow } from "../video-job-rows";
import type { VideoJobStore } from "../video-job-store";
import type { Conn } from "./client";
import { videoJobs } from "./schema";

export function pgVideoJobStore({ db }: Conn): VideoJobStore {
  const q = videoJobQueries(videoJobs);
  return {
    async create(job) {
      await db.insert(videoJobs).values(videoJobToRow(job));
    },
    async list(workspaceId, offset, limit) {
      const rows = await db
        .select()
        .from(videoJobs)
        .where(eq(videoJobs.workspaceId, workspaceId))
        .orderBy(desc(videoJobs.createdAt), sql`${videoJobs.id} collate "C" desc`)
        .limit(limit)
        .offset(offset);
      return rows.map(videoJobFromRow);
    },
    async get(id) {
      const [row] = await db.select().from(videoJobs).where(eq(videoJobs.id, id));
      return row ? videoJobFromRow(row) : undefined;
    },
    async holdingReservations() {
      const rows = await db.select().from(videoJobs).where(q.holding()).orderBy(asc(videoJobs.createdAt), sql`${videoJobs.id} collate "C"`);
      return rows.map(videoJobFromRow);
    },
    async update(id, version, patch, now) {
      const [row] = await db.update(videoJobs).set(q.advanced(patch, now)).where(q.atVersion(id, version)).returning();
      return row ? videoJobFromRow(row) : undefined;
    },
  };
}
