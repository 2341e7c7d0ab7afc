/**
 * Requests the gateway refused before any generation began: what the access log says of them and
 * what the refusal log keeps (refusal-recorder.ts). Only the API's routes count: the console's and
 * the sign-in pages' own answers are not refusals of a client's request.
 */

/** Wrong or missing key, spending limit or budget, body too large, rate limit, nothing to serve with. */
export const REFUSED_STATUSES: ReadonlySet<number> = new Set([401, 402, 413, 429, 503]);

export const isRefusal = (status: number, path: string): boolean => REFUSED_STATUSES.has(status) && path.startsWith("/api/");

/** What an error says of itself: its message and metadata, as the error handler rendered it. */
export type Failure = { message: string; metadata?: Record<string, unknown> };

/** A short name of the cause, from the status and the error's metadata. */
export function refusalCode(status: number, failure: Failure | undefined): string {
  const source = failure?.metadata?.limit_source;
  switch (status) {
    case 401:
      return failure?.message.startsWith("Missing API key") ? "missing_key" : "invalid_key";
    case 402:
      return source === "openrouter_workspace_budget" ? "workspace_budget_reached" : "key_limit_reached";
    case 413:
      return "body_too_large";
    case 429:
      return "rate_limited";
    default:
      return failure?.metadata?.removed !== undefined ? "no_endpoint" : "unavailable";
  }
}

const REASON_LENGTH = 200;

/** The error's message, cut to a line of the log. */
export function refusalReason(status: number, failure: Failure | undefined): string {
  const message = failure?.message ?? `HTTP ${status}`;
  return message.length > REASON_LENGTH ? `${message.slice(0, REASON_LENGTH - 1)}…` : message;
}

/** The `model` a refused body asked for, when it was read and names one. */
export function requestedModel(body: unknown): string | null {
  const model = typeof body === "object" && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof model === "string" && model.length > 0 ? model.slice(0, 256) : null;
}
