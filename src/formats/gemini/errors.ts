import { isJsonObject } from "../json-object";
import type { WireError } from "./wire";

/**
 * Google's error body: `{error: {code, message, status, details}}`, or (Vertex's
 * streamGenerateContent without alt=sse, and some proxies) an array holding one.
 */
export function errorOf(body: unknown): WireError | undefined {
  const candidate = Array.isArray(body) ? body[0] : body;
  if (!isJsonObject(candidate) || !isJsonObject(candidate.error)) return undefined;
  return candidate.error as WireError;
}

export function errorMessage(body: unknown): string | undefined {
  const error = errorOf(body);
  return typeof error?.message === "string" ? error.message : undefined;
}

/** The ErrorInfo reasons of an error body (https://cloud.google.com/apis/design/errors#error_info). */
export function errorReasons(body: unknown): string[] {
  const details = errorOf(body)?.details;
  if (!Array.isArray(details)) return [];
  return details.flatMap((d) => (isJsonObject(d) && typeof d.reason === "string" ? [d.reason] : []));
}

/** HTTP status of an in-stream error: its `code` when it is one, else a bad gateway. */
export function statusOfStreamError(error: WireError): number {
  return typeof error.code === "number" && error.code >= 400 && error.code <= 599 ? error.code : 502;
}
