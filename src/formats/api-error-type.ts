/**
 * OpenRouter's ApiErrorType (contract ApiErrorType) for an error that did not name one, by HTTP
 * status. The OpenAI formats report it in-band: Chat as `error.metadata.error_type`, Responses as
 * `error_type`.
 */
const API_ERROR_TYPE_BY_STATUS: Readonly<Record<number, string>> = {
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

export const apiErrorType = (status: number): string => API_ERROR_TYPE_BY_STATUS[status] ?? "server";
