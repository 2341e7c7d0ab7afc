import type { VideoJobPatch, VideoJobRecord } from "./video-job-store";

/** A video_jobs row as both dialects read it: JSON columns as text. */
export type VideoJobRow = Omit<VideoJobRecord, "request" | "upstreamRef" | "outputs"> & { request: string; upstreamRef: string | null; outputs: string };

export function videoJobFromRow(row: VideoJobRow): VideoJobRecord {
  return {
    ...row,
    isByok: Boolean(row.isByok),
    request: JSON.parse(row.request),
    upstreamRef: row.upstreamRef === null ? null : JSON.parse(row.upstreamRef),
    outputs: JSON.parse(row.outputs),
  };
}

export function videoJobToRow(job: VideoJobRecord): VideoJobRow {
  return {
    ...job,
    request: JSON.stringify(job.request),
    upstreamRef: job.upstreamRef === null ? null : JSON.stringify(job.upstreamRef),
    outputs: JSON.stringify(job.outputs),
  };
}

/** The columns a patch sets, JSON fields as text. */
export function videoPatchColumns(patch: VideoJobPatch): Partial<VideoJobRow> {
  const { upstreamRef, outputs, ...rest } = patch;
  return {
    ...rest,
    ...(upstreamRef !== undefined ? { upstreamRef: upstreamRef === null ? null : JSON.stringify(upstreamRef) } : {}),
    ...(outputs !== undefined ? { outputs: JSON.stringify(outputs) } : {}),
  };
}
