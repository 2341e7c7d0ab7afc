import type { UpstreamRef } from "../adapters/adapter";
import { upstreamJobId } from "../adapters/adapter";
import type { VideoEndpoint } from "../video-catalog";
import type { VideoJobDeps } from "./video-job-deps";

/**
 * A submission the upstream accepted after the job had moved on: another submission of the same
 * job stored its reference first (this one was sent again after a lease lapsed, or the other one
 * was), or the job ended meanwhile (its deadline). The upstream job this one made is not followed,
 * charged or announced; the operator may want to cancel it upstream, hence a warn line naming it
 * and the upstream job that is followed.
 */
export async function reportUnfollowed(
  deps: Pick<VideoJobDeps, "store" | "logger">,
  videoId: string,
  unfollowed: { endpoint: VideoEndpoint; ref: UpstreamRef },
): Promise<void> {
  const job = await deps.store.videoJobs.get(videoId);
  const fields = {
    video: videoId,
    status: job?.status ?? null,
    unfollowed_endpoint: unfollowed.endpoint.id,
    unfollowed_upstream_id: upstreamJobId(unfollowed.ref),
  };
  if (job?.upstreamRef) {
    deps.logger.warn("video job submitted twice: the upstream holds two jobs; only the first stored is followed, charged and announced", {
      ...fields,
      followed_endpoint: job.endpointId,
      followed_upstream_id: upstreamJobId(job.upstreamRef),
    });
    return;
  }
  deps.logger.warn("video job accepted upstream after it had been given up: that upstream job is not followed", fields);
}
