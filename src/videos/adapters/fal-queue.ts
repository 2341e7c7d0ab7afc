import type { Failed, PollOutcome, SubmitOutcome, UpstreamOutput, UpstreamRef, VideoAdapter, VideoErrorCode, VideoRequest, VideoTarget } from "./adapter";
import { aspectAndResolutionOfSize } from "./size";
import { callUpstream, DEFAULT_UPSTREAM_TIMEOUT_MS, isRecord, onOrigin, outcomeOfHttpError, trimSlash, type UpstreamResponse } from "./upstream-call";

/**
 * fal's queue API (https://queue.fal.run): POST the model's input to `{base}/{owner}/{alias}[/subpath]`, poll
 * `status_url`, read `response_url` once COMPLETED (a failed request is COMPLETED too: its result
 * answers 4xx/5xx), cancel with PUT `cancel_url`.
 */
export function createFalQueueAdapter(options: { timeoutMs?: number; fetch?: typeof fetch } = {}): VideoAdapter {
  const timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const call = (target: VideoTarget, url: string, method: "GET" | "POST" | "PUT", signal: AbortSignal, body?: unknown) =>
    callUpstream({ url, method, headers: { ...target.headers, authorization: `Key ${target.apiKey}` }, body }, signal, timeoutMs, options.fetch);

  return {
    api: "fal-queue",
    async submit(target, request, signal): Promise<SubmitOutcome> {
      const endpoint = falEndpointFor(target.model, request);
      const answer = await call(target, `${trimSlash(target.baseUrl)}/${endpoint}`, "POST", signal, falInputOf(target.model, request));
      if (answer.kind === "retry") return answer;
      if (answer.status >= 300) return outcomeOfHttpError(answer, falErrorMessage(answer));
      const body = isRecord(answer.json) ? answer.json : {};
      if (typeof body.request_id !== "string") return { kind: "retry", reason: "fal answered without a request_id" };
      return { kind: "submitted", ref: falRefOf(target, body.request_id, body) };
    },
    async poll(target, ref, signal): Promise<PollOutcome> {
      const status = await call(target, `${ref.status_url}?logs=0`, "GET", signal);
      if (status.kind === "retry") return status;
      if (status.status >= 300) return outcomeOfHttpError(status, falErrorMessage(status));
      const reported = isRecord(status.json) ? status.json.status : undefined;
      const progress = falStatusOutcome(typeof reported === "string" ? reported : "");
      if (progress.kind !== "completed") return progress;
      const result = await call(target, ref.response_url!, "GET", signal);
      if (result.kind === "retry") return result;
      return falResultOutcome(result);
    },
    async cancel(target, ref, signal) {
      // best effort: a 400 (already running or done) leaves the lifecycle's decision as it is
      await call(target, ref.cancel_url!, "PUT", signal);
    },
  };
}

/** IN_QUEUE/IN_PROGRESS/COMPLETED; any other string (fal adds states, e.g. CANCELLATION_REQUESTED) is still running. */
export function falStatusOutcome(status: string): { kind: "pending" } | { kind: "in_progress" } | { kind: "completed" } {
  if (status === "IN_QUEUE") return { kind: "pending" };
  if (status === "COMPLETED") return { kind: "completed" };
  return { kind: "in_progress" };
}

/** Status, result and cancel live under `{owner}/{alias}` without the subpath (the fal SDK strips it too). */
function falRefOf(target: VideoTarget, requestId: string, body: Record<string, unknown>): UpstreamRef {
  const app = target.model.split("/").slice(0, 2).join("/");
  const requests = `${trimSlash(target.baseUrl)}/${app}/requests/${requestId}`;
  return {
    request_id: requestId,
    status_url: onOrigin(body.status_url, target.baseUrl, `${requests}/status`),
    response_url: onOrigin(body.response_url, target.baseUrl, requests),
    cancel_url: onOrigin(body.cancel_url, target.baseUrl, `${requests}/cancel`),
  };
}

const FRAME_SUBPATHS = ["text-to-video", "image-to-video", "first-last-frame-to-video", "reference-to-video"];

/** Frame images and references switch the endpoint (Veo 3.1 naming): `…/image-to-video`, `…/first-last-frame-to-video`, `…/reference-to-video`. */
export function falEndpointFor(model: string, request: VideoRequest): string {
  const mode = falModeOf(request);
  if (mode === undefined) return model;
  const segments = model.split("/");
  const base = FRAME_SUBPATHS.includes(segments.at(-1)!) ? segments.slice(0, -1).join("/") : model;
  return `${base}/${mode}`;
}

function falModeOf(request: VideoRequest): string | undefined {
  const frames = request.frameImages ?? [];
  if (frames.some((f) => f.frame === "last_frame")) return "first-last-frame-to-video";
  if (frames.length > 0) return "image-to-video";
  if ((request.inputReferences ?? []).length > 0) return "reference-to-video";
  return undefined;
}

/** Veo endpoints on fal take duration as "8s"; others (Kling, Wan, …) take the number. */
export function falInputOf(model: string, request: VideoRequest): Record<string, unknown> {
  const input: Record<string, unknown> = { prompt: request.prompt };
  if (request.durationSeconds !== undefined) input.duration = /veo/i.test(model) ? `${request.durationSeconds}s` : request.durationSeconds;
  const fromSize = request.size === undefined ? undefined : aspectAndResolutionOfSize(request.size);
  const aspectRatio = request.aspectRatio ?? fromSize?.aspectRatio;
  const resolution = request.resolution ?? fromSize?.resolution;
  if (aspectRatio !== undefined) input.aspect_ratio = aspectRatio;
  if (resolution !== undefined) input.resolution = resolution;
  if (request.seed !== undefined) input.seed = request.seed;
  if (request.generateAudio !== undefined) input.generate_audio = request.generateAudio;
  const first = request.frameImages?.find((f) => f.frame === "first_frame");
  const last = request.frameImages?.find((f) => f.frame === "last_frame");
  if (last) {
    if (first) input.first_frame_url = first.url;
    input.last_frame_url = last.url;
  } else if (first) input.image_url = first.url;
  else if (request.inputReferences?.length) input.image_urls = request.inputReferences.map((r) => r.url);
  return { ...input, ...request.passthrough };
}

function falResultOutcome(result: UpstreamResponse): PollOutcome {
  const errorType =
    result.headers.get("x-fal-error-type") ?? (isRecord(result.json) && typeof result.json.error_type === "string" ? result.json.error_type : undefined);
  if (result.status >= 300) {
    // a 5xx without fal's error markers is the result call failing, not the request: ask again
    if (errorType === undefined && (result.status === 429 || result.status >= 500)) return outcomeOfHttpError(result, falErrorMessage(result));
    return failedWith(falErrorCode(result.status, errorType), falErrorMessage(result));
  }
  const outputs = falOutputsOf(result.json);
  if (outputs.length === 0) return failedWith("upstream_error", "fal result carries no video");
  return { kind: "completed", outputs };
}

const failedWith = (code: VideoErrorCode, message: string): Failed => ({ kind: "failed", code, message });

function falErrorCode(status: number, errorType: string | undefined): VideoErrorCode {
  if (errorType !== undefined && /content_policy|content_filter|moderation|nsfw/i.test(errorType)) return "content_filtered";
  if (errorType !== undefined && /timeout/i.test(errorType)) return "timeout";
  return status === 422 || status === 400 ? "invalid_request" : "upstream_error";
}

/** `{video:{url,content_type}}` on every Veo endpoint; some models answer `{videos:[…]}`. */
function falOutputsOf(json: unknown): UpstreamOutput[] {
  if (!isRecord(json)) return [];
  const files = [json.video, ...(Array.isArray(json.videos) ? json.videos : [])];
  return files.flatMap((file) =>
    isRecord(file) && typeof file.url === "string"
      ? [{ url: file.url, ...(typeof file.content_type === "string" ? { contentType: file.content_type } : {}) }]
      : [],
  );
}

/** `detail` is a string, or pydantic's `[{loc,msg,type}]` on 422. */
function falErrorMessage(answer: UpstreamResponse): string {
  const detail = isRecord(answer.json) ? answer.json.detail : undefined;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail))
    return detail.map((d) => (isRecord(d) ? `${Array.isArray(d.loc) ? `${d.loc.join(".")}: ` : ""}${String(d.msg ?? "")}` : String(d))).join("; ");
  return answer.text.slice(0, 500) || `HTTP ${answer.status}`;
}

export const falQueueAdapter: VideoAdapter = createFalQueueAdapter();
