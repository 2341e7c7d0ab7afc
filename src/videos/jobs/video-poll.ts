import { RetryAfter } from "../../jobs/job-errors";
import type { JobKind } from "../../jobs/registry";
import type { VideoJobRecord, VideoOutputRecord } from "../../store/video-job-store";
import type { PollOutcome, UpstreamOutput } from "../adapters/adapter";
import { OutputDownloadError, storeOutput } from "../storage/video-storage";
import { storedRequestOf } from "../stored-request";
import type { VideoEndpoint } from "../video-catalog";
import { videoCostNanos } from "../video-cost";
import { boundedCall, VIDEO_DOWNLOAD_TIMEOUT_MS } from "./bounded-call";
import { finishDepsOf, finishVideoJob } from "./finish";
import { nextPollDelayMs } from "./poll-delay";
import { isTerminal } from "./transitions";
import { targetOf, VIDEO_MAX_ATTEMPTS, VIDEO_POLL, type VideoJobDeps, videoIdOf } from "./video-job-deps";

/**
 * Asks the upstream how a submitted job is doing, again and again (RetryAfter schedules the next
 * poll), until it ends: outputs are copied into the gateway's storage and the real cost computed
 * before the job is completed; an upstream failure or the deadline fails it.
 */
/** "60 minutes", "3 seconds": the deadline as the error message says it */
export function spokenDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  return `${Math.round(seconds / 60)} minutes`;
}

export function videoPollKind(deps: VideoJobDeps): JobKind {
  const { pollInitialMs, pollMaxMs } = deps.config.videos;
  const finish = finishDepsOf(deps);
  // waiting on the upstream is the normal case; a transient failure is worth a warn line
  const later = (job: VideoJobRecord, attempt: number, reason: string, atLeastSeconds = 0, expected = false): RetryAfter =>
    new RetryAfter(Math.max(atLeastSeconds, nextPollDelayMs(attempt, pollInitialMs, pollMaxMs, job.deadlineAt - deps.clock()) / 1000), reason, { expected });

  async function complete(
    job: VideoJobRecord,
    endpoint: VideoEndpoint,
    outputs: readonly UpstreamOutput[],
    billedSeconds: number | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const stored: VideoOutputRecord[] = [];
    for (const [index, output] of outputs.entries()) {
      const file = await boundedCall(
        signal,
        job.deadlineAt - deps.clock(),
        (s) => storeOutput(deps.storage, job.id, index, output, s),
        (ms) => {
          throw new OutputDownloadError(`downloading output ${index}: not done within ${ms} ms`, true);
        },
        VIDEO_DOWNLOAD_TIMEOUT_MS,
      );
      stored.push({ index, path: file.path, contentType: file.contentType, bytes: file.bytes });
    }
    const { params } = storedRequestOf(job.request);
    const costNanos = videoCostNanos(endpoint.prices, billedSeconds ?? params.durationSeconds, params.generateAudio && endpoint.capabilities.generateAudio);
    await finishVideoJob(finish, job, endpoint, { status: "completed", outputs: stored, costNanos, isByok: false });
  }

  return {
    kind: VIDEO_POLL,
    maxAttempts: VIDEO_MAX_ATTEMPTS,
    async run(payload, { job: run, signal }) {
      const job = await deps.store.videoJobs.get(videoIdOf(payload));
      if (!job || isTerminal(job.status)) return;
      const endpoint = job.endpointId === null ? undefined : deps.catalog.endpoint(job.endpointId);
      const adapter = endpoint && deps.adapters[endpoint.provider.api];
      if (deps.clock() >= job.deadlineAt) {
        return finishVideoJob(finish, job, endpoint, {
          status: "failed",
          errorMessage: `Timed out: the video was not ready within ${spokenDuration(job.deadlineAt - job.createdAt)}`,
        });
      }
      if (!endpoint || !adapter || job.upstreamRef === null)
        return finishVideoJob(finish, job, endpoint, {
          status: "failed",
          errorMessage: `The endpoint ${job.endpointId ?? "(none)"} serving this job is no longer configured`,
        });
      const ref = job.upstreamRef;
      const outcome = await boundedCall(
        signal,
        job.deadlineAt - deps.clock(),
        (s) => adapter.poll(targetOf(endpoint), ref, s),
        (ms): PollOutcome => ({ kind: "retry", reason: `retrieve: no answer within ${ms} ms` }),
      );
      switch (outcome.kind) {
        case "pending":
          throw later(job, run.attempts, "still queued upstream", 0, true);
        case "in_progress":
          if (job.status === "pending") await deps.store.videoJobs.update(job.id, job.version, { status: "in_progress" }, deps.clock());
          throw later(job, run.attempts, "in progress upstream", 0, true);
        case "retry":
          throw later(job, run.attempts, outcome.reason, outcome.retryAfterSeconds);
        case "failed":
          return finishVideoJob(finish, job, endpoint, { status: "failed", errorMessage: outcome.message });
        case "cancelled":
          return finishVideoJob(finish, job, endpoint, { status: "cancelled", errorMessage: "cancelled upstream" });
        case "completed":
          try {
            return await complete(job, endpoint, outcome.outputs, outcome.billedSeconds, signal);
          } catch (err) {
            if (!(err instanceof OutputDownloadError)) throw err;
            if (err.transient) throw later(job, run.attempts, err.message);
            return finishVideoJob(finish, job, endpoint, { status: "failed", errorMessage: `The video could not be copied from the provider: ${err.message}` });
          }
      }
    },
  };
}
