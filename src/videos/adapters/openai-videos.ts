import type { Failed, PollOutcome, SubmitOutcome, Transient, VideoAdapter, VideoRequest, VideoTarget } from "./adapter";
import { deriveSize, OPENAI_SIZES } from "./size";

/**
 * The OpenAI-shaped `/v1/videos` API (OpenAI's Videos API, https://api.openai.com/v1/videos): OpenAI's Sora 2 and the relays that
 * copy it. Create is multipart (as OpenAI's SDK sends it), `seconds` a string, `size` "WxH";
 * retrieve answers queued | in_progress | completed | failed; the MP4 is GET .../content.
 */

/**
 * The `size` to send: the one asked, else the one derived from the endpoint's sizes when the
 * request was validated; a job stored before sizes were derived has it made from OpenAI's own
 * sizes. Undefined when no shape was asked (OpenAI's default stands) or none can be made.
 */
export function openAiSize(request: Pick<VideoRequest, "size" | "derivedSize" | "resolution" | "aspectRatio">): string | undefined {
  return request.size ?? request.derivedSize ?? deriveSize(OPENAI_SIZES, request);
}

const headersOf = (target: VideoTarget): Record<string, string> => ({ ...target.headers, Authorization: `Bearer ${target.apiKey}` });

type VideoObject = { id?: unknown; status?: unknown; seconds?: unknown; progress?: unknown; error?: { code?: unknown; message?: unknown } | null };

async function errorText(res: Response): Promise<string> {
  const text = await res.text().catch(() => "");
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === "string") return message;
  } catch {
    // not JSON: the text itself says what happened
  }
  return text.slice(0, 500) || res.statusText;
}

/** 429, 408 and 5xx are worth another try; any other error status is the request's fault. */
async function statusOutcome(res: Response, step: string): Promise<Transient | Failed> {
  const message = `${step}: HTTP ${res.status}: ${await errorText(res)}`;
  if (res.status === 429 || res.status === 408 || res.status >= 500) {
    const retryAfter = Number(res.headers.get("retry-after"));
    return { kind: "retry", reason: message, status: res.status, ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}) };
  }
  return { kind: "failed", code: res.status === 400 || res.status === 422 ? "invalid_request" : "upstream_error", message };
}

async function call(url: string, init: RequestInit, step: string): Promise<Response | Transient> {
  try {
    return await fetch(url, { ...init, redirect: "manual" });
  } catch (err) {
    if (init.signal?.aborted) throw err;
    return { kind: "retry", reason: `${step}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export const openAiVideosAdapter: VideoAdapter = {
  api: "openai-videos",

  async submit(target, request, signal): Promise<SubmitOutcome> {
    // OpenAI's input_reference is the first frame; it has no last frame and no other references
    if (request.frameImages?.some((f) => f.frame === "last_frame") || request.inputReferences?.length)
      return { kind: "failed", code: "invalid_request", message: "this upstream takes only a first_frame image (no last_frame, no input_references)" };
    const size = openAiSize(request);
    // a ratio or resolution that no size makes is refused, not dropped (the upstream would make its default)
    if (size === undefined && (request.aspectRatio !== undefined || request.resolution !== undefined))
      return {
        kind: "failed",
        code: "invalid_request",
        message: `no size of this upstream has aspect_ratio ${request.aspectRatio ?? "(any)"} at resolution ${request.resolution ?? "(any)"}`,
      };
    const form = new FormData();
    const first = request.frameImages?.find((f) => f.frame === "first_frame");
    // an object field spelled as OpenAI's SDK spells it in multipart: input_reference[image_url]
    if (first) form.set("input_reference[image_url]", first.url);
    form.set("model", target.model);
    form.set("prompt", request.prompt);
    if (request.durationSeconds !== undefined) form.set("seconds", String(request.durationSeconds));
    if (size) form.set("size", size);
    for (const [name, value] of Object.entries(request.passthrough)) form.set(name, typeof value === "string" ? value : JSON.stringify(value));
    const res = await call(`${target.baseUrl}/videos`, { method: "POST", headers: headersOf(target), body: form, signal }, "create");
    if (!(res instanceof Response)) return res;
    if (!res.ok) return statusOutcome(res, "create");
    const body = (await res.json().catch(() => ({}))) as VideoObject;
    if (typeof body.id !== "string" || body.id === "") return { kind: "retry", reason: "create: the answer carries no video id" };
    return { kind: "submitted", ref: { id: body.id } };
  },

  async poll(target, ref, signal): Promise<PollOutcome> {
    const id = ref.id ?? "";
    const res = await call(`${target.baseUrl}/videos/${encodeURIComponent(id)}`, { headers: headersOf(target), signal }, "retrieve");
    if (!(res instanceof Response)) return res;
    if (!res.ok) return statusOutcome(res, "retrieve");
    const video = (await res.json().catch(() => ({}))) as VideoObject;
    switch (video.status) {
      case "queued":
        return { kind: "pending" };
      case "in_progress":
        return { kind: "in_progress", ...(typeof video.progress === "number" ? { progress: video.progress / 100 } : {}) };
      case "completed": {
        const seconds = Number(video.seconds);
        return {
          kind: "completed",
          outputs: [{ url: `${target.baseUrl}/videos/${encodeURIComponent(id)}/content`, headers: headersOf(target), contentType: "video/mp4" }],
          ...(Number.isFinite(seconds) && seconds > 0 ? { billedSeconds: seconds } : {}),
        };
      }
      case "failed": {
        const message = typeof video.error?.message === "string" ? video.error.message : "the upstream reported the generation failed";
        return { kind: "failed", code: video.error?.code === "moderation_blocked" ? "content_filtered" : "upstream_error", message };
      }
      default:
        return { kind: "retry", reason: `retrieve: unknown status ${JSON.stringify(video.status)}` };
    }
  },
};
