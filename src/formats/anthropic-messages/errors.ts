import type { Static } from "elysia";
import { GatewayError } from "../../errors";
import type { AnthropicErrorBodySchema } from "./schema";

/**
 * Anthropic's error shape for /messages (OpenRouter's AnthropicMessagesErrorResponse).
 * Anthropic clients key retries and error classes off these types, so the mapping
 * follows Anthropic's documented status table.
 */
export type AnthropicErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "billing_error"
  | "permission_error"
  | "not_found_error"
  | "timeout_error"
  | "request_too_large"
  | "rate_limit_error"
  | "api_error"
  | "overloaded_error";

const ERROR_TYPES: ReadonlySet<string> = new Set<AnthropicErrorType>([
  "invalid_request_error",
  "authentication_error",
  "billing_error",
  "permission_error",
  "not_found_error",
  "timeout_error",
  "request_too_large",
  "rate_limit_error",
  "api_error",
  "overloaded_error",
]);

export const isAnthropicErrorType = (type: string | undefined): type is AnthropicErrorType => type !== undefined && ERROR_TYPES.has(type);

const TYPE_BY_STATUS: Record<number, AnthropicErrorType> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  408: "timeout_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  // Anthropic documents no 503; "no provider can serve this now" is the same
  // temporary condition as its 529, and clients retry both.
  503: "overloaded_error",
  529: "overloaded_error",
};

export function errorTypeForStatus(status: number): AnthropicErrorType {
  const known = TYPE_BY_STATUS[status];
  if (known) return known;
  // Anthropic: invalid_request_error "may also be used for other 4XX status codes".
  return status >= 400 && status < 500 ? "invalid_request_error" : "api_error";
}

/** Status an upstream in-stream error type stands for; anything unexpected is a bad gateway. */
export function statusForErrorType(type: string | undefined): number {
  if (type === "overloaded_error") return 529;
  if (type === "rate_limit_error") return 429;
  return 502;
}

export type AnthropicErrorBody = Static<typeof AnthropicErrorBodySchema>;

export function anthropicErrorBody(status: number, message: string, errorType?: string, details?: AnthropicErrorDetails): AnthropicErrorBody {
  const error = { type: errorType ?? errorTypeForStatus(status), message };
  return { type: "error", error: details ? { ...error, details } : error, request_id: null };
}

/**
 * Anthropic names a cause its SDKs branch on in `error.details.error_code` (the SDK's
 * `APIError.errorCode`). A GatewayError carries it as metadata with an `error_code`; other
 * metadata has no place in Anthropic's body.
 */
export type AnthropicErrorDetails = { error_code: string } & Record<string, unknown>;

export function errorDetailsOf(metadata: Record<string, unknown> | undefined): AnthropicErrorDetails | undefined {
  return typeof metadata?.error_code === "string" ? (metadata as AnthropicErrorDetails) : undefined;
}

/**
 * The gateway holds no server-side conversation (Anthropic's message threads). The Anthropic
 * SDK's tool runner and threads send `thread` first and, on exactly this answer, send the whole
 * conversation again without it (`ThreadState.recoversFrom` in @anthropic-ai/sdk).
 */
export const threadUnsupported = () =>
  new GatewayError(400, "Invalid field 'thread': this gateway holds no message threads; send the full conversation without 'thread'", {
    error_code: "thread_unsupported_request",
  });
