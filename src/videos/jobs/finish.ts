import type { SecretBox } from "../../crypto/secret-box";
import { type JobGeneration, jobGenerationRecord, settleJob } from "../../gateway/generation-job";
import type { Store } from "../../store/store";
import type { VideoJobPatch, VideoJobRecord } from "../../store/video-job-store";
import { storedRequestOf } from "../stored-request";
import type { VideoEndpoint } from "../video-catalog";
import { canMove } from "./transitions";
import type { VideoJobDeps } from "./video-job-deps";
import { videoObservation } from "./video-observation";
import { enqueueVideoWebhook } from "./video-webhook";

export const VIDEO_EXPIRE = "video.expire";

/** `secrets`: seals what observability forwards or keeps of the video (absent: nothing is) */
export type FinishDeps = { store: Store; clock: () => number; retentionMs: number; releaseReservation?: (id: string) => void; secrets?: SecretBox };

export const finishDepsOf = (deps: VideoJobDeps): FinishDeps => ({
  store: deps.store,
  clock: deps.clock,
  releaseReservation: deps.releaseReservation,
  secrets: deps.secrets,
  retentionMs: deps.config.videos.retentionMs,
});

/** The job's generation: who asked (stored with the job), the endpoint that served by its provider's name, the end. */
function generationOf(job: VideoJobRecord, endpoint: VideoEndpoint | undefined, costNanos: number, error: string | null, now: number): JobGeneration {
  const { caller, guardrailFlags } = storedRequestOf(job.request);
  const identity = {
    id: job.generationId,
    keyHash: job.keyHash,
    workspaceId: job.workspaceId,
    userId: job.userId,
    apiType: "video" as const,
    requestedModel: job.model,
    streamed: false,
    sessionId: caller?.sessionId ?? null,
    externalUser: caller?.externalUser ?? null,
    presetId: null,
    trace: caller?.trace ?? null,
    httpReferer: caller?.httpReferer ?? null,
    userAgent: caller?.userAgent ?? null,
    appName: caller?.appName ?? null,
    startedAt: job.createdAt,
    ...(guardrailFlags?.length ? { guardrailFlags } : {}),
  };
  const served = endpoint ? { model: job.model, providerName: endpoint.provider.name, endpointId: endpoint.id, isByok: false } : null;
  const attempts = endpoint
    ? [{ model: job.model, provider: endpoint.provider.name, endpoint: endpoint.id, status: error === null ? 200 : 500, latency: now - job.createdAt }]
    : [];
  const end = {
    usage: null,
    usageEstimated: false,
    cost: { total: costNanos, prompt: 0, completion: costNanos, other: 0 },
    cancelled: false,
    finishReason: error === null ? "stop" : "error",
    nativeFinishReason: error === null ? "completed" : "failed",
    upstreamId: job.upstreamRef?.id ?? null,
    firstTokenAt: null,
    // a video is being made from its submission on; it has no first token
    generatingSince: job.createdAt,
    errorMessage: error,
  };
  return { identity, served, attempts, end };
}

/**
 * Ends a job: first its generation record, spend and reservation release (skipped when already
 * stored, so a rerun never charges twice), then the status by compare-and-set together with its
 * webhook and, for a completed job, the expiry of its outputs. A job another worker moved on is
 * left as it is.
 */
export async function finishVideoJob(
  deps: FinishDeps,
  job: VideoJobRecord,
  endpoint: VideoEndpoint | undefined,
  patch: VideoJobPatch & { status: "completed" | "failed" | "cancelled" },
): Promise<void> {
  if (!canMove(job.status, patch.status)) return;
  const now = deps.clock();
  const cost = patch.status === "completed" ? (patch.costNanos ?? 0) : 0;
  const record = jobGenerationRecord(generationOf(job, endpoint, cost, patch.status === "completed" ? null : (patch.errorMessage ?? patch.status), now), now);
  const workspace = await deps.store.workspaces.find(job.workspaceId);
  const outbox = deps.secrets ? await videoObservation({ store: deps.store, secrets: deps.secrets }, workspace, job, endpoint, record, now) : undefined;
  await settleJob(deps.store, record, now, job.reservationId, outbox);
  // the commit frees a PostgreSQL reservation; on SQLite it lives in the memory of the process that took the request
  if (job.reservationId !== null) deps.releaseReservation?.(job.reservationId);
  await deps.store.transaction(async (tx) => {
    const done = await tx.videoJobs.update(job.id, job.version, { ...patch, completedAt: now }, now);
    if (!done) return;
    await enqueueVideoWebhook(tx, done, workspace?.webhookUrl ?? null, now);
    if (done.status === "completed")
      await tx.jobs.enqueue({
        id: crypto.randomUUID(),
        kind: VIDEO_EXPIRE,
        key: `${VIDEO_EXPIRE}:${job.id}`,
        payload: { video_id: job.id },
        runAt: now + deps.retentionMs,
        now,
      });
  });
}
