import { nanosToUsd } from "../billing/money";
import type { VideoJobRecord } from "../store/video-job-store";

/** VideoGenerationResponse of a job, its URLs under `origin` (the gateway as the client reached it). */
export function presentVideoJob(job: VideoJobRecord, origin: string) {
  const base = `${origin}/api/v1/videos/${encodeURIComponent(job.id)}`;
  return {
    id: job.id,
    polling_url: base,
    status: job.status,
    generation_id: job.generationId,
    ...(job.status === "completed"
      ? { unsigned_urls: job.outputs.map((o) => `${base}/content?index=${o.index}`), usage: { cost: nanosToUsd(job.costNanos ?? 0), is_byok: job.isByok } }
      : {}),
    ...(job.status === "failed" && job.errorMessage !== null ? { error: job.errorMessage } : {}),
  };
}
