import type { PollOutcome, SubmitOutcome, UpstreamRef, VideoAdapter, VideoErrorCode, VideoRequest, VideoTarget } from "./adapter";
import { callUpstream, DEFAULT_UPSTREAM_TIMEOUT_MS, isRecord, onOrigin, outcomeOfHttpError, trimSlash, type UpstreamResponse } from "./upstream-call";

/**
 * Replicate's predictions API (https://api.replicate.com/v1): `owner/name` creates on the
 * model's endpoint, `owner/name:version` (community models) on /predictions with the version id. No `Prefer: wait`:
 * a video outlasts any wait, and polling is the baseline.
 */
export function createReplicateAdapter(options: { timeoutMs?: number; fetch?: typeof fetch } = {}): VideoAdapter {
  const timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const call = (target: VideoTarget, url: string, method: "GET" | "POST", signal: AbortSignal, body?: unknown) =>
    callUpstream({ url, method, headers: { ...target.headers, authorization: `Bearer ${target.apiKey}` }, body }, signal, timeoutMs, options.fetch);

  return {
    api: "replicate",
    async submit(target, request, signal): Promise<SubmitOutcome> {
      const base = trimSlash(target.baseUrl);
      const [model, version] = target.model.split(":");
      const input = replicateInputOf(request);
      const answer = version
        ? await call(target, `${base}/predictions`, "POST", signal, { version, input })
        : await call(target, `${base}/models/${model}/predictions`, "POST", signal, { input });
      if (answer.kind === "retry") return answer;
      if (answer.status >= 300) return outcomeOfHttpError(answer, replicateErrorMessage(answer));
      const prediction = isRecord(answer.json) ? answer.json : {};
      if (typeof prediction.id !== "string") return { kind: "retry", reason: "Replicate answered without a prediction id" };
      return { kind: "submitted", ref: replicateRefOf(target, prediction.id, prediction.urls) };
    },
    async poll(target, ref, signal): Promise<PollOutcome> {
      const answer = await call(target, ref.get_url!, "GET", signal);
      if (answer.kind === "retry") return answer;
      if (answer.status >= 300) return outcomeOfHttpError(answer, replicateErrorMessage(answer));
      const prediction = isRecord(answer.json) ? answer.json : {};
      return replicatePredictionOutcome(prediction);
    },
    async cancel(target, ref, signal) {
      await call(target, ref.cancel_url!, "POST", signal);
    },
  };
}

function replicateRefOf(target: VideoTarget, id: string, urls: unknown): UpstreamRef {
  const predictions = `${trimSlash(target.baseUrl)}/predictions/${id}`;
  const given = isRecord(urls) ? urls : {};
  return { id, get_url: onOrigin(given.get, target.baseUrl, predictions), cancel_url: onOrigin(given.cancel, target.baseUrl, `${predictions}/cancel`) };
}

/**
 * Replicate's prediction statuses: starting → pending, processing → in_progress, succeeded →
 * completed, failed/aborted → failed, canceled → cancelled. Any other status is treated as
 * still running: Replicate has added statuses before (`aborted`, 2025) and the lifecycle's
 * deadline ends a job that never finishes.
 */
export function replicatePredictionOutcome(prediction: Record<string, unknown>): PollOutcome {
  const status = prediction.status;
  switch (status) {
    case "starting":
      return { kind: "pending" };
    case "succeeded": {
      const outputs = replicateOutputUrls(prediction.output).map((url) => ({ url }));
      return outputs.length > 0
        ? { kind: "completed", outputs }
        : { kind: "failed", code: "upstream_error", message: "Replicate prediction succeeded without an output" };
    }
    case "failed": {
      const message = typeof prediction.error === "string" && prediction.error !== "" ? prediction.error : "Replicate prediction failed";
      return { kind: "failed", code: replicateFailureCode(message), message };
    }
    case "aborted":
      return { kind: "failed", code: "upstream_error", message: "Replicate aborted the prediction before it ran" };
    case "canceled":
      return { kind: "cancelled" };
    default:
      return { kind: "in_progress" };
  }
}

/** Replicate's safety checker fails with "flagged as sensitive … (E005)"; NSFW wording varies by model. */
function replicateFailureCode(message: string): VideoErrorCode {
  return /E005|flagged as sensitive|nsfw|safety|content policy/i.test(message) ? "content_filtered" : "upstream_error";
}

/** `output` is a URL or a list of URLs for video models; a few wrap it in an object. */
function replicateOutputUrls(output: unknown): string[] {
  if (typeof output === "string") return [output];
  if (Array.isArray(output)) return output.filter((item): item is string => typeof item === "string");
  if (isRecord(output)) return Object.values(output).filter((item): item is string => typeof item === "string" && /^https?:/.test(item));
  return [];
}

/**
 * Input names are per model schema; these are the common ones (those of the wan, ltx and
 * veo models on Replicate). A model that names them otherwise renames them through
 * passthrough, merged last.
 */
export function replicateInputOf(request: VideoRequest): Record<string, unknown> {
  const input: Record<string, unknown> = { prompt: request.prompt };
  if (request.durationSeconds !== undefined) input.duration = request.durationSeconds;
  if (request.aspectRatio !== undefined) input.aspect_ratio = request.aspectRatio;
  if (request.resolution !== undefined) input.resolution = request.resolution;
  if (request.size !== undefined) input.size = request.size;
  if (request.seed !== undefined) input.seed = request.seed;
  if (request.generateAudio !== undefined) input.generate_audio = request.generateAudio;
  const first = request.frameImages?.find((f) => f.frame === "first_frame");
  const last = request.frameImages?.find((f) => f.frame === "last_frame");
  if (first) input.image = first.url;
  if (last) input.last_frame = last.url;
  if (request.inputReferences?.length) input.reference_images = request.inputReferences.map((r) => r.url);
  return { ...input, ...request.passthrough };
}

/** Errors are problem JSON `{title, detail, status}`; 422 validation uses `detail` too. */
function replicateErrorMessage(answer: UpstreamResponse): string {
  const body = isRecord(answer.json) ? answer.json : {};
  if (typeof body.detail === "string") return body.detail;
  if (typeof body.title === "string") return body.title;
  return answer.text.slice(0, 500) || `HTTP ${answer.status}`;
}

export const replicateAdapter: VideoAdapter = createReplicateAdapter();
