import type { JobKind } from "../../jobs/registry";
import { finishDepsOf } from "./finish";
import { failUnaccepted, isUnaccepted, NOT_ACCEPTED_BY_DEADLINE } from "./unaccepted";
import { VIDEO_DEADLINE, type VideoJobDeps, videoIdOf } from "./video-job-deps";

/** The deadline job of a video job, stored with it: due at its deadline. */
export const videoDeadlineJob = (videoId: string, deadlineAt: number, now: number) => ({
  id: crypto.randomUUID(),
  kind: VIDEO_DEADLINE,
  key: `${VIDEO_DEADLINE}:${videoId}`,
  payload: { video_id: videoId },
  runAt: deadlineAt,
  now,
});

/**
 * At a job's deadline, fails it if no upstream has accepted it yet, whatever its submission is
 * doing: waiting for the lease of a process that died while it called the upstream, for an
 * upstream's Retry-After, or for the next step of the retry schedule. The submission checks the
 * deadline only when it runs, and any of these can hold it back past the deadline.
 *
 * A job an upstream accepted is left to its poll job, which never waits past the deadline and
 * fails it there: only the poll may complete a job, so no two kinds race to settle its charge.
 */
export function videoDeadlineKind(deps: VideoJobDeps): JobKind {
  const finish = finishDepsOf(deps);
  return {
    kind: VIDEO_DEADLINE,
    async run(payload) {
      const job = await deps.store.videoJobs.get(videoIdOf(payload));
      if (job && isUnaccepted(job)) await failUnaccepted(finish, job, NOT_ACCEPTED_BY_DEADLINE);
    },
  };
}
