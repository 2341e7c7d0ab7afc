import { RetryAfter } from "../../jobs/job-errors";
import type { VideoJobRecord } from "../../store/video-job-store";
import type { VideoEndpoint } from "../video-catalog";
import { type FinishDeps, finishVideoJob } from "./finish";

export const NOT_ACCEPTED_BY_DEADLINE = "The video was not accepted by any provider before its deadline";

/** No upstream has the job yet: only submissions act on it, and they never charge. */
export const isUnaccepted = (job: VideoJobRecord): boolean => job.status === "pending" && job.upstreamRef === null;

/**
 * Fails a job no upstream has accepted: cost 0, its reservation released, one `failed` webhook.
 * The row's version is moved first (a fence, nothing else changes): a submission answered from then
 * on finds it moved and stores nothing, so no reference lands on a job whose failure is being
 * settled. A job that moved before the fence (a reference stored) is looked at again: the job runs
 * again at once.
 */
export async function failUnaccepted(finish: FinishDeps, job: VideoJobRecord, message: string, endpoint?: VideoEndpoint): Promise<void> {
  const fenced = await finish.store.videoJobs.update(job.id, job.version, {}, finish.clock());
  if (!fenced) throw new RetryAfter(0, "the video job moved while it was being failed");
  await finishVideoJob(finish, fenced, endpoint, { status: "failed", errorMessage: message });
}
