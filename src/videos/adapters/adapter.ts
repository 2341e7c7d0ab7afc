/**
 * One upstream video API (OpenAI-shaped /v1/videos, fal queue, Replicate predictions, Gemini API
 * Veo) behind the one interface the job lifecycle drives: submit once, poll until terminal, hand
 * back where the outputs are. Adapters translate parameters, and each upstream's statuses into
 * the job's own; they never store, charge or retry on their own: each
 * call makes one upstream request (or a few, for one logical step) and returns an outcome.
 */

export const VIDEO_APIS = ["openai-videos", "fal-queue", "replicate", "gemini-veo"] as const;
export type VideoApi = (typeof VIDEO_APIS)[number];

/** Normalized request parameters, already validated against the model's capabilities. */
export type VideoRequest = {
  prompt: string;
  durationSeconds?: number;
  resolution?: string;
  aspectRatio?: string;
  /** "WxH", as asked */
  size?: string;
  /**
   * "WxH" made of aspect ratio and resolution when no size was asked, for an API whose only
   * shape field is a size (the OpenAI shape): derived when the request was validated, from the
   * sizes the endpoints list (validate-request.ts).
   */
  derivedSize?: string;
  seed?: number;
  generateAudio?: boolean;
  frameImages?: ReadonlyArray<{ frame: "first_frame" | "last_frame"; url: string }>;
  inputReferences?: ReadonlyArray<{ url: string }>;
  /** the serving provider's allow-listed passthrough parameters, merged last into the upstream body */
  passthrough: Readonly<Record<string, unknown>>;
};

/** Where and as whom to call: the endpoint's provider and upstream model. */
export type VideoTarget = { baseUrl: string; apiKey: string; model: string; headers: Readonly<Record<string, string>> };

/** What the adapter needs to find the job again (ids, status/response URLs); opaque to the lifecycle, stored as JSON. */
export type UpstreamRef = Readonly<Record<string, string>>;

/** The upstream's own name for a job, for log lines: OpenAI's and Replicate's `id`, fal's `request_id`, Gemini's `operation`. */
export const upstreamJobId = (ref: UpstreamRef): string => ref.id ?? ref.request_id ?? ref.operation ?? JSON.stringify(ref);

export type VideoErrorCode =
  | "invalid_request"
  | "content_filtered"
  | "upstream_error"
  | "timeout"
  | "cancelled"
  | "expired"
  | "insufficient_credits"
  | "rate_limited";

/** A transient failure (429, 5xx, network): the lifecycle retries the same step later. */
export type Transient = {
  kind: "retry";
  reason: string;
  retryAfterSeconds?: number;
  /** the upstream's HTTP status when it answered one; absent when no answer came (network, timeout) */
  status?: number;
};
export type Failed = { kind: "failed"; code: VideoErrorCode; message: string };

export type SubmitOutcome = { kind: "submitted"; ref: UpstreamRef } | Transient | Failed;

/** An output to copy into the gateway's storage: a URL and the headers its download needs. */
export type UpstreamOutput = { url: string; headers?: Readonly<Record<string, string>>; contentType?: string };

export type PollOutcome =
  | { kind: "pending" }
  | { kind: "in_progress"; progress?: number }
  | { kind: "completed"; outputs: readonly UpstreamOutput[]; billedSeconds?: number }
  | { kind: "cancelled" }
  | Transient
  | Failed;

export interface VideoAdapter {
  readonly api: VideoApi;
  submit(target: VideoTarget, request: VideoRequest, signal: AbortSignal): Promise<SubmitOutcome>;
  poll(target: VideoTarget, ref: UpstreamRef, signal: AbortSignal): Promise<PollOutcome>;
  /** best effort; absent where the upstream has no cancel */
  cancel?(target: VideoTarget, ref: UpstreamRef, signal: AbortSignal): Promise<void>;
}
