import { retryAfterSeconds } from "../../retry-after";
import type { HttpResult, SenderDeps, SendOutcome } from "../contract";

export type { HttpResult } from "../contract";

/** Which answers count as what, per destination type. */
export type StatusPolicy = {
  /** default: any 2xx */
  isSuccess?: (status: number) => boolean;
  /** default: 408, 429 and every 5xx */
  isRetryable?: (status: number) => boolean;
};

export const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

/** At most 200 characters of an answer's body on one line, for the outcome's reason (services explain a 400 there). */
export function bodyExcerpt(body: Uint8Array): string {
  const text = new TextDecoder().decode(body.subarray(0, 800)).replace(/\s+/g, " ").trim();
  return text === "" ? "" : `: ${text.slice(0, 200)}`;
}

/**
 * What an answer comes to. A refused URL is never retried (the check will refuse it again); no
 * answer at all (a dropped socket, a timeout) is retried; a retryable status is retried after
 * the destination's Retry-After when it gave one; anything else failed.
 */
export function classifyResponse(result: HttpResult, now: number, policy: StatusPolicy = {}): SendOutcome {
  if (result.kind === "refused") return { kind: "failed", reason: `destination URL refused: ${result.reason}` };
  if (result.kind === "failed") return { kind: "retry", reason: result.timedOut ? "destination timed out" : `no answer: ${result.reason}` };
  const { status } = result;
  if ((policy.isSuccess ?? ((s: number) => s >= 200 && s < 300))(status)) return { kind: "delivered" };
  const reason = `destination answered ${status}${bodyExcerpt(result.body)}`;
  if (!(policy.isRetryable ?? isRetryableStatus)(status)) return { kind: "failed", reason };
  const after = retryAfterSeconds(result.headers.get("retry-after"), now);
  return after === undefined ? { kind: "retry", reason } : { kind: "retry", reason, afterSeconds: after };
}

/** POSTs a JSON body through the guarded client. */
export function postJson(deps: SenderDeps, url: string, headers: Record<string, string>, payload: unknown): Promise<HttpResult> {
  return deps.http({ url, method: "POST", headers, body: JSON.stringify(payload) });
}

/** POSTs a JSON body and classifies the answer: the whole of most native sends. */
export async function postJsonClassified(
  deps: SenderDeps,
  url: string,
  headers: Record<string, string>,
  payload: unknown,
  policy?: StatusPolicy,
): Promise<SendOutcome> {
  return classifyResponse(await postJson(deps, url, headers, payload), deps.clock(), policy);
}
