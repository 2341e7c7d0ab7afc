import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { videoJobs } from "../tables/jobs";
import { videoPatchColumns } from "../video-job-rows";
import type { VideoJobPatch } from "../video-job-store";
import type { EitherTable } from "./shapes";

/** A video job's compare-and-set: a change applies only to the version it was made from, and bumps it. */
export function videoJobQueries(t: EitherTable<typeof videoJobs>) {
  return {
    atVersion: (id: string, version: number) => and(eq(t.id, id), eq(t.version, version)),
    advanced: (patch: VideoJobPatch, now: number) => ({ ...videoPatchColumns(patch), version: sql`${t.version} + 1`, updatedAt: now }),
    /** not ended, with a reservation: what a SQLite start holds again */
    holding: () => and(inArray(t.status, ["pending", "in_progress"]), isNotNull(t.reservationId)),
  };
}
