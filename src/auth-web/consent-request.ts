import { callbackProblem } from "../modules/auth/callback-url";
import { challengeProblem } from "../modules/auth/pkce";
import type { AuthCodeRequest } from "../modules/auth/service";

/**
 * What an app asks for on the consent page, from the query that `createAuthorizationUrl` builds
 * (`callback_url`, `code_challenge`, `code_challenge_method`, `limit`), or from the consent form
 * that repeats it. `callbackRejected` marks a callback that must not be redirected to at all.
 */
export type ConsentRequest = { ok: true; request: AuthCodeRequest } | { ok: false; problem: string; callbackRejected: boolean };

export const CONSENT_FIELDS = ["callback_url", "code_challenge", "code_challenge_method", "limit"] as const;

export function consentRequest(field: (name: (typeof CONSENT_FIELDS)[number]) => string | undefined): ConsentRequest {
  const callback = field("callback_url");
  if (!callback) return { ok: false, problem: "The app did not say where to return to (callback_url is missing).", callbackRejected: true };
  const callbackIssue = callbackProblem(callback);
  if (callbackIssue) return { ok: false, problem: `The app's return address ${callback} is not allowed: it ${callbackIssue}.`, callbackRejected: true };
  const request: AuthCodeRequest = { callback_url: callback };
  const method = field("code_challenge_method") || undefined;
  if (method !== undefined && method !== "S256" && method !== "plain")
    return { ok: false, problem: "The app sent an unknown code_challenge_method (expected S256 or plain).", callbackRejected: false };
  const challenge = field("code_challenge") || undefined;
  if (challenge !== undefined) {
    const issue = challengeProblem(challenge, method ?? "plain");
    if (issue) return { ok: false, problem: `The app sent an unusable code_challenge: ${issue}.`, callbackRejected: false };
    request.code_challenge = challenge;
    request.code_challenge_method = method ?? "plain";
  } else if (method !== undefined) return { ok: false, problem: "The app sent a code_challenge_method without a code_challenge.", callbackRejected: false };
  const limit = field("limit");
  if (limit !== undefined && limit !== "") {
    const usd = Number(limit);
    if (!/^\d+(\.\d+)?$/.test(limit.trim()) || !Number.isFinite(usd))
      return { ok: false, problem: "The app asked for a limit that is not an amount of dollars.", callbackRejected: false };
    request.limit = usd;
  }
  return { ok: true, request };
}

/** The consent page's own address for a request (where sign-in returns to). */
export function consentPath(request: AuthCodeRequest): string {
  const query = new URLSearchParams({ callback_url: request.callback_url });
  if (request.code_challenge !== undefined) query.set("code_challenge", request.code_challenge);
  if (request.code_challenge_method !== undefined) query.set("code_challenge_method", request.code_challenge_method);
  if (request.limit !== undefined) query.set("limit", String(request.limit));
  return `/auth?${query}`;
}
