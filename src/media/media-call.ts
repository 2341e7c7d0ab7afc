import { upstreamErrorMessage } from "../formats/error-message";
import type { UpstreamOperation } from "../gateway/generation";
import { httpFailure, transportFailure, type UpstreamFailure } from "../gateway/upstream-failure";
import { firstByteDeadline } from "../providers/first-byte-deadline";
import { upstreamFetch } from "../providers/transport";
import { transportErrorMessage } from "../providers/transport-error";
import type { MediaEndpoint, MediaProvider } from "./media-catalog";
import type { MediaCandidate } from "./media-route";
import type { MultipartBody } from "./multipart-body";

/** What one media call sends: JSON, or a multipart body streamed from the parts it holds. */
export type MediaRequest = { url: string; json?: Record<string, unknown>; form?: MultipartBody; accept?: string };

/** The message of a media API's error body: OpenAI's `{error: {message}}`, Cohere's `{message}`. */
export function mediaErrorMessage(body: unknown): string | undefined {
  const message = upstreamErrorMessage(body);
  if (message !== undefined) return message;
  const flat = body && typeof body === "object" ? (body as { message?: unknown }).message : undefined;
  return typeof flat === "string" ? flat : undefined;
}

/** Every media API authorizes with the key as a bearer token, beside the provider's fixed headers. */
const headersOf = (provider: MediaProvider, apiKey: string, accept: string): Record<string, string> => ({
  accept,
  ...provider.headers,
  authorization: `Bearer ${apiKey}`,
});

const MAX_RAW_BODY = 64 * 1024;

/** An answer that is not what the API promises: the endpoint is at fault, so another may serve. */
export const unreadableAnswer = (what: string, raw: unknown): UpstreamFailure =>
  transportFailure(`invalid upstream ${what}`, { status: 502, raw: typeof raw === "string" ? raw.slice(0, MAX_RAW_BODY) : raw });

/** A successful answer's JSON body, or the failure of reading it. */
export async function jsonAnswer(res: Response, what: string): Promise<{ ok: true; json: unknown } | UpstreamFailure> {
  const text = await res.text().catch(() => "");
  try {
    return { ok: true, json: JSON.parse(text) };
  } catch {
    return unreadableAnswer(what, text);
  }
}

/**
 * A media call as a fallback-loop operation: one request to one candidate under the first-byte
 * deadline, an error status handed to the loop as it came (classifyFailure decides), a 2xx read by
 * `read`. `read` runs before the deadline is met, so an answer whose body never ends falls over
 * too; a streamed answer's reader returns once its first bytes are in.
 */
export function mediaOperation<E extends MediaEndpoint, T>(
  firstByteTimeoutMs: number,
  request: (candidate: MediaCandidate<E>) => MediaRequest,
  read: (res: Response, candidate: MediaCandidate<E>, signal: AbortSignal) => Promise<{ ok: true; value: T } | UpstreamFailure>,
): UpstreamOperation<T, MediaCandidate<E>> {
  return async (candidate, clientSignal) => {
    const deadline = firstByteDeadline(clientSignal, firstByteTimeoutMs);
    try {
      let res: Response;
      try {
        const r = request(candidate);
        const headers = headersOf(candidate.endpoint.provider, candidate.apiKey, r.accept ?? "application/json");
        const form = r.form;
        res = await upstreamFetch(
          form
            ? {
                url: r.url,
                method: "POST",
                headers: { ...headers, "content-type": form.contentType, "content-length": String(form.length) },
                rawBody: form.stream(),
                signal: deadline.signal,
              }
            : { url: r.url, method: "POST", headers, body: r.json, signal: deadline.signal },
        );
      } catch (err) {
        return transportFailure(deadline.timedOut() ? "no response before the first-byte timeout" : `connection failed: ${transportErrorMessage(err)}`, {
          timedOut: deadline.timedOut(),
        });
      }
      if (!res.ok) return await httpFailure(res, mediaErrorMessage);
      const read_ = await read(res, candidate, deadline.signal).catch((err: unknown) =>
        transportFailure(deadline.timedOut() ? "no response before the first-byte timeout" : `reading the answer failed: ${transportErrorMessage(err)}`, {
          timedOut: deadline.timedOut(),
        }),
      );
      return read_.ok ? { ok: true, status: res.status, value: read_.value } : read_;
    } finally {
      deadline.met();
    }
  };
}
