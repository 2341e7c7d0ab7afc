import type { OutboundOptions } from "../../outbound/client";
import type { Failed, PollOutcome, SubmitOutcome, Transient, VideoAdapter, VideoErrorCode, VideoRequest, VideoTarget } from "./adapter";
import { type InlineImage, inlineImageOf } from "./inline-image";
import { aspectAndResolutionOfSize } from "./size";
import { callUpstream, DEFAULT_UPSTREAM_TIMEOUT_MS, isRecord, outcomeOfHttpError, trimSlash, type UpstreamResponse } from "./upstream-call";

/**
 * Gemini Developer API Veo (https://generativelanguage.googleapis.com/v1beta): `POST models/{model}:predictLongRunning`, then
 * GET the operation until `done`. No cancel: the API has none we can rely on.
 */
export function createGeminiVeoAdapter(options: { outbound: OutboundOptions; timeoutMs?: number; fetch?: typeof fetch }): VideoAdapter {
  const timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const call = (target: VideoTarget, url: string, method: "GET" | "POST", signal: AbortSignal, body?: unknown) =>
    callUpstream({ url, method, headers: { ...target.headers, "x-goog-api-key": target.apiKey }, body }, signal, timeoutMs, options.fetch);

  return {
    api: "gemini-veo",
    async submit(target, request, signal): Promise<SubmitOutcome> {
      const body = await veoBodyOf(request, options.outbound);
      if (body.kind !== "body") return body;
      const answer = await call(target, `${trimSlash(target.baseUrl)}/models/${target.model}:predictLongRunning`, "POST", signal, body.body);
      if (answer.kind === "retry") return answer;
      if (answer.status >= 300) return outcomeOfHttpError(answer, googleErrorMessage(answer));
      const name = isRecord(answer.json) ? answer.json.name : undefined;
      if (typeof name !== "string" || name === "") return { kind: "retry", reason: "Gemini answered without an operation name" };
      return { kind: "submitted", ref: { operation: name } };
    },
    async poll(target, ref, signal): Promise<PollOutcome> {
      const answer = await call(target, `${trimSlash(target.baseUrl)}/${ref.operation}`, "GET", signal);
      if (answer.kind === "retry") return answer;
      if (answer.status >= 300) return outcomeOfHttpError(answer, googleErrorMessage(answer));
      return veoOperationOutcome(isRecord(answer.json) ? answer.json : {}, target.apiKey);
    },
  };
}

/**
 * The operation's states: not done → in_progress (Veo reports no progress, and a poll only happens after submit);
 * done + error → failed; done + samples → completed; done with none, filtered → content_filtered.
 * The download URIs need the API key (same header), hence the output headers.
 */
export function veoOperationOutcome(operation: Record<string, unknown>, apiKey: string): PollOutcome {
  if (operation.done !== true) return { kind: "in_progress" };
  if (isRecord(operation.error)) {
    const message = typeof operation.error.message === "string" ? operation.error.message : "Veo operation failed";
    return { kind: "failed", code: rpcFailureCode(operation.error.code), message };
  }
  const response = isRecord(operation.response) && isRecord(operation.response.generateVideoResponse) ? operation.response.generateVideoResponse : {};
  const samples = Array.isArray(response.generatedSamples) ? response.generatedSamples : [];
  const uris = samples.flatMap((sample) => (isRecord(sample) && isRecord(sample.video) && typeof sample.video.uri === "string" ? [sample.video.uri] : []));
  if (uris.length > 0) return { kind: "completed", outputs: uris.map((url) => ({ url, headers: { "x-goog-api-key": apiKey }, contentType: "video/mp4" })) };
  if (typeof response.raiMediaFilteredCount === "number" && response.raiMediaFilteredCount > 0) {
    const reasons = Array.isArray(response.raiMediaFilteredReasons) ? response.raiMediaFilteredReasons.filter((r) => typeof r === "string") : [];
    return { kind: "failed", code: "content_filtered", message: reasons.join("; ") || "the video was filtered by the provider's safety system" };
  }
  return { kind: "failed", code: "upstream_error", message: "Veo operation finished without a video" };
}

/** google.rpc.Code numbers: 3 INVALID_ARGUMENT, 4 DEADLINE_EXCEEDED, 8 RESOURCE_EXHAUSTED, 9 FAILED_PRECONDITION. */
function rpcFailureCode(code: unknown): VideoErrorCode {
  if (code === 3 || code === 9 || code === 11) return "invalid_request";
  if (code === 4) return "timeout";
  if (code === 8) return "rate_limited";
  return "upstream_error";
}

/**
 * seed and generateAudio are left out: the Gemini API refuses both (Veo 3.x always has audio),
 * and capability checks keep them from reaching here. Passthrough merges into `parameters`.
 */
export async function veoBodyOf(
  request: VideoRequest,
  outbound: OutboundOptions,
): Promise<{ kind: "body"; body: Record<string, unknown> } | Failed | Transient> {
  const instance: Record<string, unknown> = { prompt: request.prompt };
  const frames: Array<[string, string | undefined]> = [
    ["image", request.frameImages?.find((f) => f.frame === "first_frame")?.url],
    ["lastFrame", request.frameImages?.find((f) => f.frame === "last_frame")?.url],
  ];
  for (const [field, url] of frames) {
    if (url === undefined) continue;
    const image = await inlineImageOf(url, outbound);
    if (image.kind !== "inline") return image;
    instance[field] = image.image;
  }
  // frame_images win over input_references when both are sent, as on OpenRouter (its openrouter-video skill, OpenRouterTeam/skills)
  if (!request.frameImages?.length && request.inputReferences?.length) {
    const references: Array<{ image: InlineImage; referenceType: "asset" }> = [];
    for (const reference of request.inputReferences.slice(0, 3)) {
      const image = await inlineImageOf(reference.url, outbound);
      if (image.kind !== "inline") return image;
      references.push({ image: image.image, referenceType: "asset" });
    }
    instance.referenceImages = references;
  }
  const parameters: Record<string, unknown> = {};
  const fromSize = request.size === undefined ? undefined : aspectAndResolutionOfSize(request.size);
  const aspectRatio = request.aspectRatio ?? fromSize?.aspectRatio;
  const resolution = request.resolution ?? fromSize?.resolution;
  if (aspectRatio !== undefined) parameters.aspectRatio = aspectRatio;
  // the normalized enum says "4K"; Veo says "4k"
  if (resolution !== undefined) parameters.resolution = resolution.toLowerCase();
  if (request.durationSeconds !== undefined) parameters.durationSeconds = request.durationSeconds;
  return { kind: "body", body: { instances: [instance], parameters: { ...parameters, ...request.passthrough } } };
}

/** `{error:{code, message, status}}` */
function googleErrorMessage(answer: UpstreamResponse): string {
  const error = isRecord(answer.json) && isRecord(answer.json.error) ? answer.json.error : {};
  if (typeof error.message === "string") return typeof error.status === "string" ? `${error.status}: ${error.message}` : error.message;
  return answer.text.slice(0, 500) || `HTTP ${answer.status}`;
}
