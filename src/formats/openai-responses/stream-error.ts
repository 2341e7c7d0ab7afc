/** Responses' reduced error codes (contract §3.1) and the ApiErrorType taxonomy, both from an HTTP status. */

export function responsesErrorCode(status: number): string {
  if (status === 429) return "rate_limit_exceeded";
  if (status === 400) return "invalid_prompt";
  return "server_error";
}

const ERROR_TYPE_BY_STATUS: Record<number, string> = {
  400: "invalid_request",
  401: "authentication",
  402: "payment_required",
  403: "permission_denied",
  404: "not_found",
  408: "timeout",
  413: "payload_too_large",
  422: "unprocessable",
  429: "rate_limit_exceeded",
  502: "provider_unavailable",
  503: "provider_unavailable",
  504: "timeout",
  524: "timeout",
  529: "provider_overloaded",
};

export const apiErrorType = (status: number): string => ERROR_TYPE_BY_STATUS[status] ?? "server";

/** The other way round, for upstream failures: the HTTP status a Responses error code stands for. */
export function statusForErrorCode(code: unknown): number {
  if (code === "rate_limit_exceeded") return 429;
  if (code === "invalid_prompt") return 400;
  if (typeof code === "string" && /^(invalid_|image_|unsupported_image|empty_image|failed_to_download)/.test(code)) return 400;
  if (typeof code === "number" && code >= 400 && code < 600) return code;
  return 502;
}
