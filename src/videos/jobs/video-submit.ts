import type { UpstreamOperation } from "../../gateway/generation";
import { attemptJob } from "../../gateway/generation-job";
import type { UpstreamFailure } from "../../gateway/upstream-failure";
import { RetryAfter } from "../../jobs/job-errors";
import type { JobKind } from "../../jobs/registry";
import type { Failed, Transient, UpstreamRef, VideoAdapter } from "../adapters/adapter";
import { passthroughFor, storedRequestOf } from "../stored-request";
import type { VideoEndpoint } from "../video-catalog";
import { boundedCall } from "./bounded-call";
import { finishDepsOf } from "./finish";
import { failUnaccepted, isUnaccepted, NOT_ACCEPTED_BY_DEADLINE } from "./unaccepted";
import { reportUnfollowed } from "./unfollowed-submission";
import { targetOf, VIDEO_MAX_ATTEMPTS, VIDEO_POLL, VIDEO_SUBMIT, type VideoJobDeps, videoIdOf } from "./video-job-deps";

/** One endpoint a video job may be submitted to, as the inference core's fallback loop sees it. */
type VideoCandidate = { endpoint: VideoEndpoint; model: { id: string }; isByok: false; adapter: VideoAdapter };

/**
 * Hands a pending job to the first candidate endpoint that takes it, through the generation
 * lifecycle's one fallback loop (`attemptJob`): it feeds this worker's circuits, and
 * endpoints whose circuit is open are tried after the others. A transient failure (429, 5xx,
 * network) moves on to the next candidate; when all of them were transient the whole step runs
 * again later; a refused request fails the job. The accepted job's reference is stored with its
 * first poll in one transaction, by compare-and-set on the job's version.
 *
 * At least once: the upstreams take no idempotency key, so a submission whose answer was lost (the
 * process died during the call, its lease lapsed) is sent again, and the upstream may then hold two
 * jobs. The first reference stored is the one followed, charged and announced; a submission
 * answered after that stores nothing and names both upstream jobs in a warn line.
 */
export function videoSubmitKind(deps: VideoJobDeps): JobKind {
  const finish = finishDepsOf(deps);
  const fallback = { router: deps.router, clock: deps.clock, telemetry: deps.telemetry };
  return {
    kind: VIDEO_SUBMIT,
    maxAttempts: VIDEO_MAX_ATTEMPTS,
    async run(payload, { signal }) {
      const job = await deps.store.videoJobs.get(videoIdOf(payload));
      if (!job || !isUnaccepted(job)) return;
      if (deps.clock() >= job.deadlineAt) return failUnaccepted(finish, job, NOT_ACCEPTED_BY_DEADLINE);
      const request = storedRequestOf(job.request);
      const candidates: VideoCandidate[] = [];
      for (const endpointId of request.candidates) {
        const endpoint = deps.catalog.endpoint(endpointId);
        const adapter = endpoint && deps.adapters[endpoint.provider.api];
        if (endpoint && adapter) candidates.push({ endpoint, model: { id: endpoint.modelId }, isByok: false, adapter });
      }
      let transient: Transient | undefined;
      let failed: Failed | undefined;
      let refused: { endpoint: VideoEndpoint; outcome: Failed } | undefined;
      const submit: UpstreamOperation<UpstreamRef, VideoCandidate> = async ({ endpoint, adapter }, s) => {
        const params = { ...request.params, passthrough: passthroughFor(request, endpoint.provider.slug, endpoint.capabilities.passthrough) };
        const outcome = await boundedCall(
          s,
          job.deadlineAt - deps.clock(),
          (b) => adapter.submit(targetOf(endpoint), params, b),
          (ms): Transient => ({ kind: "retry", reason: `create: no answer within ${ms} ms` }),
        );
        if (outcome.kind === "submitted") return { ok: true, status: 200, value: outcome.ref };
        if (outcome.kind === "retry") transient = outcome;
        else if (isRefusal(outcome)) refused = { endpoint, outcome };
        else failed = outcome;
        deps.logger.debug("video submission failed", {
          video: job.id,
          endpoint: endpoint.id,
          reason: outcome.kind === "retry" ? outcome.reason : outcome.message,
        });
        return upstreamFailureOf(outcome);
      };
      const served = await attemptJob(fallback, inCircuitOrder(deps, candidates), signal, submit);
      if (served.ok) {
        const now = deps.clock();
        const stored = await deps.store.transaction(async (tx) => {
          const moved = await tx.videoJobs.update(job.id, job.version, { endpointId: served.candidate.endpoint.id, upstreamRef: served.value }, now);
          if (moved)
            await tx.jobs.enqueue({
              id: crypto.randomUUID(),
              kind: VIDEO_POLL,
              key: `${VIDEO_POLL}:${job.id}`,
              payload: { video_id: job.id },
              runAt: now + deps.config.videos.pollInitialMs,
              now,
            });
          return moved !== undefined;
        });
        if (!stored) await reportUnfollowed(deps, job.id, { endpoint: served.candidate.endpoint, ref: served.value });
        return;
      }
      // the worker is stopping: the job runs again
      if (signal.aborted) throw signal.reason;
      if (refused) return failUnaccepted(finish, job, refused.outcome.message, refused.endpoint);
      if (transient) throw new RetryAfter(transient.retryAfterSeconds ?? deps.config.videos.pollInitialMs / 1000, transient.reason);
      return failUnaccepted(finish, job, failed?.message ?? "No endpoint of this model can take video jobs now");
    },
  };
}

/** The request itself is at fault: another endpoint would refuse it too, and this one is healthy. */
const isRefusal = (outcome: Failed) => outcome.code === "invalid_request" || outcome.code === "content_filtered";

/** Endpoints whose circuit is open go after the others, in the order routing chose. */
function inCircuitOrder(deps: Pick<VideoJobDeps, "router">, candidates: readonly VideoCandidate[]): VideoCandidate[] {
  const open = (c: VideoCandidate) => deps.router.circuits.health(c.endpoint.id) === "open";
  return [...candidates.filter((c) => !open(c)), ...candidates.filter(open)];
}

/** A video failure as the fallback loop's classifier reads it (`classifyFailure`). */
function upstreamFailureOf(outcome: Transient | Failed): UpstreamFailure {
  if (outcome.kind === "retry") {
    const retryAfter = outcome.retryAfterSeconds === undefined ? {} : { retryAfter: String(outcome.retryAfterSeconds) };
    if (outcome.status !== undefined) return { ok: false, kind: "http", status: outcome.status, message: outcome.reason, timedOut: false, ...retryAfter };
    return { ok: false, kind: "transport", status: 0, message: outcome.reason, timedOut: outcome.reason.includes("no answer within"), ...retryAfter };
  }
  return { ok: false, kind: "http", status: FAILED_STATUS[outcome.code], message: outcome.message, timedOut: false };
}

/** 400 for a refused request (not retryable, not the endpoint's fault); the rest try the next endpoint and count against this one. */
const FAILED_STATUS: Record<Failed["code"], number> = {
  invalid_request: 400,
  content_filtered: 400,
  insufficient_credits: 402,
  rate_limited: 429,
  timeout: 504,
  upstream_error: 502,
  cancelled: 502,
  expired: 502,
};
