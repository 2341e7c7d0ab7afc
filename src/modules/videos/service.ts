import { randomBytes } from "node:crypto";
import type { AppContext } from "../../app-context";
import { GatewayError, notFound } from "../../errors";
import { sessionIdHeader } from "../../formats/session-header";
import { admitJob, appNameOf, type JobAdmission } from "../../gateway/generation-job";
import { newGenerationId } from "../../gateway/ids";
import type { Principal } from "../../http/principal";
import { requireOutboundUrl } from "../../outbound/policy";
import type { VideoJobRecord } from "../../store/video-job-store";
import { videoDeadlineJob } from "../../videos/jobs/video-deadline";
import { VIDEO_SUBMIT } from "../../videos/jobs/video-job-deps";
import { presentVideoJob } from "../../videos/present";
import { videoPromptContent } from "../../videos/prompt-content";
import type { StoredVideoRequest, VideoCaller } from "../../videos/stored-request";
import { type ValidatedVideoRequest, validateVideoRequest } from "../../videos/validate-request";
import type { VideoEndpoint } from "../../videos/video-catalog";
import { videoCatalogOf } from "../../videos/video-catalog-of";
import { videoCostNanos } from "../../videos/video-cost";
import type { VideoGenerationRequestBody } from "./model";

/** holds the reservations of video jobs: no instance has this id, so none renews them */
export const VIDEO_RESERVATION_HOLDER = "video-jobs/until-deadline";

const videoLease = (ctx: AppContext) => ({ instanceId: VIDEO_RESERVATION_HOLDER, leaseMs: ctx.config.videos.deadlineMs + 60_000 });

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** `gen-vid-<unix seconds>-<20 alphanumerics>`, the id format of OpenRouter's VideoGenerationResponse */
function newVideoJobId(now: number): string {
  const random = [...randomBytes(20)].map((b) => ALNUM[b % ALNUM.length]).join("");
  return `gen-vid-${Math.floor(now / 1000)}-${random}`;
}

/** The model, or 404; its endpoints that can serve now (a provider key), or 503. */
function servingEndpoints(ctx: AppContext, modelId: string) {
  const model = videoCatalogOf(ctx.config).get(modelId);
  if (!model) throw new GatewayError(404, `Model ${modelId} is not a video model of this gateway (see GET /api/v1/videos/models)`, { field: "model" });
  const usable = model.endpoints.filter((e) => e.provider.apiKey !== undefined);
  if (usable.length === 0) throw new GatewayError(503, `No endpoint of ${modelId} can take video jobs now (its providers have no API key)`, { model: modelId });
  return { model, usable };
}

/**
 * POST /videos: validates against the model; the key's guardrails (the lifecycle's policy step)
 * narrow the endpoints and screen the prompt; reserves the worst case against the key's limit,
 * the workspace's budgets and the guardrails' budgets, and stores the job with its submit and deadline jobs in one transaction. The upstream is called by the job.
 */
export async function createVideo(ctx: AppContext, principal: Principal, body: VideoGenerationRequestBody, httpRequest: Request) {
  const origin = new URL(httpRequest.url).origin;
  const caller = callerOf(body, httpRequest.headers);
  const { model, usable } = servingEndpoints(ctx, body.model);
  const checked = validateVideoRequest(body, model, usable);
  const callbackUrl = body.callback_url === undefined ? null : await requireOutboundUrl(ctx, "callback_url", body.callback_url);
  const now = ctx.clock();
  const id = newVideoJobId(now);
  const generationId = newGenerationId(now);
  const { durationSeconds, generateAudio } = checked.params;
  // a submission counts toward rpm and holds a concurrency slot while it is being stored, like any request
  return admitJob(
    ctx,
    principal,
    {
      id: generationId,
      candidates: checked.candidates.map((endpoint) => ({ endpoint, model: { id: model.id }, isByok: false })),
      worstCase: ({ endpoint }) => videoCostNanos(endpoint.prices, durationSeconds, generateAudio && endpoint.capabilities.generateAudio),
      // the job outlives this request and may finish on another instance's worker: the reservation
      // is nobody's to renew and lasts until the deadline (by then the job has settled or failed)
      lease: videoLease(ctx),
      // the guardrails screen the prompt; the job sends upstream what they leave of it
      content: videoPromptContent(checked.params),
    },
    (admission) => storeVideoJob(ctx, principal, checked, admission, { id, generationId, modelId: model.id, callbackUrl, now, origin, caller }),
  );
}

type NewJob = { id: string; generationId: string; modelId: string; callbackUrl: string | null; now: number; origin: string; caller: VideoCaller };

/** The request's session, user, trace and app headers, as an inference generation records them. */
function callerOf(body: VideoGenerationRequestBody, headers: Headers): VideoCaller {
  return {
    sessionId: body.session_id ?? sessionIdHeader(headers) ?? null,
    externalUser: body.user ?? null,
    trace: (body.trace as Record<string, unknown> | undefined) ?? null,
    httpReferer: headers.get("http-referer"),
    userAgent: headers.get("user-agent"),
    appName: appNameOf(headers),
  };
}

/** Stores the admitted job with its submit and deadline jobs in one transaction. */
async function storeVideoJob(
  ctx: AppContext,
  principal: Principal,
  checked: ValidatedVideoRequest,
  admission: JobAdmission<{ endpoint: VideoEndpoint }, StoredVideoRequest["params"]>,
  { id, generationId, modelId, callbackUrl, now, origin, caller }: NewJob,
) {
  const request: StoredVideoRequest = {
    params: admission.request ?? checked.params,
    passthrough: checked.passthrough,
    candidates: admission.candidates.map((c) => c.endpoint.id),
    origin,
    caller,
    ...(admission.flags.length > 0 ? { guardrailFlags: admission.flags } : {}),
    ...(admission.reservationId !== null && admission.held
      ? {
          reservation: {
            ...admission.held,
            memberUserId: principal.key.creatorUserId,
            instanceId: VIDEO_RESERVATION_HOLDER,
            expiresAt: now + videoLease(ctx).leaseMs,
          },
        }
      : {}),
  };
  const job: VideoJobRecord = {
    id,
    generationId,
    workspaceId: principal.workspace.id,
    keyHash: principal.key.hash,
    userId: principal.user?.id ?? null,
    model: modelId,
    status: "pending",
    version: 0,
    request,
    callbackUrl,
    reservationId: admission.reservationId,
    endpointId: null,
    upstreamRef: null,
    outputs: [],
    costNanos: null,
    isByok: false,
    errorMessage: null,
    createdAt: now,
    updatedAt: now,
    deadlineAt: now + ctx.config.videos.deadlineMs,
    completedAt: null,
  };
  await ctx.store.transaction(async (tx) => {
    await tx.videoJobs.create(job);
    await tx.jobs.enqueue({ id: crypto.randomUUID(), kind: VIDEO_SUBMIT, key: `${VIDEO_SUBMIT}:${id}`, payload: { video_id: id }, runAt: now, now });
    // fails the job at its deadline if no provider has accepted it by then, whatever holds its submission back
    await tx.jobs.enqueue(videoDeadlineJob(id, job.deadlineAt, now));
  });
  const { id: jobId, polling_url, status, generation_id } = presentVideoJob(job, origin);
  return { id: jobId, polling_url, status, generation_id };
}

/** A job of the caller's workspace; any other is 404, so ids of other workspaces reveal nothing. */
export async function ownVideoJob(ctx: AppContext, principal: Principal, jobId: string): Promise<VideoJobRecord> {
  const job = await ctx.store.videoJobs.get(jobId);
  if (!job || job.workspaceId !== principal.workspace.id) throw notFound(`Video job ${jobId} not found`);
  return job;
}

export async function getVideo(ctx: AppContext, principal: Principal, jobId: string, origin: string) {
  return presentVideoJob(await ownVideoJob(ctx, principal, jobId), origin);
}
