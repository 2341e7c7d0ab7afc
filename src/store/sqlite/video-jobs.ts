import { asc, desc, eq } from "drizzle-orm";
import { videoJobQueries } from "../queries/video-jobs";
import { videoJobFromRow, videoJobToRow } from "../video-job-rows";
import type { VideoJobStore } from "../video-job-store";
import type { Db, WriteStep } from "./client";
import { videoJobs } from "./schema";

export function sqliteVideoJobStore(db: Db, write: WriteStep): VideoJobStore {
  const q = videoJobQueries(videoJobs);
  return {
    create: (job) => write(() => void db.insert(videoJobs).values(videoJobToRow(job)).run()),
    async get(id) {
      const row = db.select().from(videoJobs).where(eq(videoJobs.id, id)).get();
      return row ? videoJobFromRow(row) : undefined;
    },
    async list(workspaceId, offset, limit) {
      const rows = db
        .select()
        .from(videoJobs)
        .where(eq(videoJobs.workspaceId, workspaceId))
        .orderBy(desc(videoJobs.createdAt), desc(videoJobs.id))
        .limit(limit)
        .offset(offset)
        .all();
      return rows.map(videoJobFromRow);
    },
    async holdingReservations() {
      return db.select().from(videoJobs).where(q.holding()).orderBy(asc(videoJobs.createdAt), asc(videoJobs.id)).all().map(videoJobFromRow);
    },
    update: (id, version, patch, now) =>
      write(() => {
        const row = db.update(videoJobs).set(q.advanced(patch, now)).where(q.atVersion(id, version)).returning().get();
        return row ? videoJobFromRow(row) : undefined;
      }),
  };
}
