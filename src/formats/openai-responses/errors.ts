/** Responses' error codes (OpenRouter's CodeEnum) from an HTTP status, and back. */

/** Responses clients get the gateway's standard body, OpenRouter's `{error: {code, message, metadata}}`. */
export { errorBody as responsesErrorBody } from "../../errors";

/** The reduced code of a failed response's `error.code`. */
export function responsesErrorCode(status: number): string {
  if (status === 429) return "rate_limit_exceeded";
  if (status === 400) return "invalid_prompt";
  return "server_error";
}

/** The other way round, for upstream failures: the HTTP status a Responses error code stands for. */
export function statusForErrorCode(code: unknown): number {
  if (code === "rate_limit_exceeded") return 429;
  if (code === "invalid_prompt") return 400;
  if (typeof code === "string" && /^(invalid_|image_|unsupported_image|empty_image|failed_to_download)/.test(code)) return 400;
  if (typeof code === "number" && code >= 400 && code < 600) return code;
  return 502;
}
