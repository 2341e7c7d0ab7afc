import type { ProbeResult } from "../contract";
import { bodyExcerpt, type HttpResult } from "./post-json";

/**
 * A connection test's verdict from one answer, in words a user can act on: whether the URL,
 * the credentials or the named resource (project, table) is what is wrong.
 */
export function probeFromResponse(result: HttpResult, resource: string): ProbeResult {
  if (result.kind === "refused") return { ok: false, message: `the URL is not allowed: ${result.reason}` };
  if (result.kind === "failed")
    return { ok: false, message: result.timedOut ? "the destination did not answer in time" : `the destination could not be reached: ${result.reason}` };
  const { status } = result;
  if (status >= 200 && status < 300) return { ok: true };
  const detail = bodyExcerpt(result.body);
  if (status === 401 || status === 403) return { ok: false, message: `the credentials were refused (${status})${detail}` };
  if (status === 404) return { ok: false, message: `${resource} was not found (404)${detail}` };
  return { ok: false, message: `the destination answered ${status}${detail}` };
}
