import { RetryAfter } from "../../jobs/job-errors";
import type { JobKind } from "../../jobs/registry";
import type { Failed, Transient } from "../adapters/adapter";
import { passthroughFor, storedRequestOf } from "../stored-request";
import { boundedCall } from "./bounded-call";
import { finishVideoJob } from "./finish";
import { targetOf, VIDEO_MAX_ATTEMPTS, VIDEO_POLL, VIDEO_SUBMIT, videoIdOf, type VideoJobDeps } from "./video-job-deps";

/**
 * Hands a pending job to the first candidate endpoint that takes it, in the order routing chose.
 * A transient failure (429, 5xx, network) moves on to the next candidate; when all of them were
 * transient the whole step runs again later; a refused request fails the job. The accepted
 * job's reference is stored with its first poll in one transaction.
 */
export function videoSubmitKind(deps: VideoJobDeps): JobKind {
  const finish = { store: deps.store, clock: deps.clock, releaseReservation: deps.releaseReservation, retentionMs: deps.config.videos.retentionMs };
  return {
    kind: VIDEO_SUBMIT,
    maxAttempts: VIDEO_MAX_ATTEMPTS,
    async run(payload, { signal }) {
      const job = await deps.store.videoJobs.get(videoIdOf(payload));
      if (!job || job.status !== "pending" || job.upstreamRef !== null) return;
      if (deps.clock() >= job.deadlineAt) return finishVideoJob(finish, job, undefined, { status: "failed", errorMessage: "The video was not accepted by any provider before its deadline" });
      const request = storedRequestOf(job.request);
      let transient: Transient | undefined;
      let failed: Failed | undefined;
      for (const endpointId of request.candidates) {
        const endpoint = deps.catalog.endpoint(endpointId);
        const adapter = endpoint && deps.adapters[endpoint.provider.api];
        if (!endpoint || !adapter) continue;
        const params = { ...request.params, passthrough: passthroughFor(request, endpoint.provider.slug, endpoint.capabilities.passthrough) };
        const outcome = await boundedCall(signal, job.deadlineAt - deps.clock(), (s) => adapter.submit(targetOf(endpoint), params, s), (ms): Transient => ({ kind: "retry", reason: `create: no answer within ${ms} ms` }));
        if (outcome.kind === "submitted") {
          const now = deps.clock();
          await deps.store.transaction(async (tx) => {
            const moved = await tx.videoJobs.update(job.id, job.version, { endpointId: endpoint.id, upstreamRef: outcome.ref }, now);
            if (moved) await tx.jobs.enqueue({ id: crypto.randomUUID(), kind: VIDEO_POLL, key: `${VIDEO_POLL}:${job.id}`, payload: { video_id: job.id }, runAt: now + deps.config.videos.pollInitialMs, now });
          });
          return;
        }
        if (outcome.kind === "retry") transient = outcome;
        else if (outcome.code === "invalid_request" || outcome.code === "content_filtered") return finishVideoJob(finish, job, endpoint, { status: "failed", errorMessage: outcome.message });
        else failed = outcome;
        deps.logger.warn("video submission failed", { video: job.id, endpoint: endpoint.id, reason: outcome.kind === "retry" ? outcome.reason : outcome.message });
      }
      if (transient) throw new RetryAfter(transient.retryAfterSeconds ?? deps.config.videos.pollInitialMs / 1000, transient.reason);
      return finishVideoJob(finish, job, undefined, { status: "failed", errorMessage: failed?.message ?? "No endpoint of this model can take video jobs now" });
    },
  };
}
