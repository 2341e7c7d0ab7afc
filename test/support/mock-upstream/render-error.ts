// Error bodies in each provider's own shape, chosen by HTTP status the way the
// providers choose them.

const OPENAI: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: "invalid_request_error", code: null, message: "Invalid request." },
  401: { type: "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key provided." },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory", message: "Forbidden." },
  404: { type: "invalid_request_error", code: "model_not_found", message: "The model does not exist." },
  429: { type: "requests", code: "rate_limit_exceeded", message: "Rate limit reached for requests." },
  500: { type: "server_error", code: null, message: "The server had an error while processing your request." },
  503: { type: "server_error", code: null, message: "The engine is currently overloaded, please try again later." },
};

const ANTHROPIC: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

export function openAiErrorBody(status: number, message?: string): unknown {
  const e = OPENAI[status] ?? (status >= 500 ? OPENAI[500]! : OPENAI[400]!);
  return { error: { message: message ?? e.message, type: e.type, param: null, code: e.code } };
}

export function anthropicErrorBody(status: number, requestId: string, message?: string): unknown {
  const type = ANTHROPIC[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  return { type: "error", error: { type, message: message ?? `mock ${type}` }, request_id: requestId };
}

/** A body that no decoder of the format can accept: an HTML proxy page or a non-JSON SSE line. */
export function invalidBody(stream: boolean): string {
  return stream ? "data: {not json\n\n" : "<html><body>502 Bad Gateway</body></html>";
}
