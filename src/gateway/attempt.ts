import type { SseEvent, UpstreamCodec, UpstreamStreamDecoder } from "../ir/codec";
import { UpstreamFormatError } from "../ir/codec";
import type { IRRequest, IRResult, IRStreamPart } from "../ir/types";
import { sendUpstream } from "../providers/transport";
import { adaptMaxTokensField, refusedMaxTokens } from "../providers/max-tokens-field";
import type { Candidate } from "./candidates";
import { readSse } from "./sse-reader";

/** Why an attempt failed, and whether the next candidate may be tried. */
export type AttemptFailure = {
  ok: false;
  /** upstream HTTP status, or 0 when no response came */
  status: number;
  message: string;
  raw?: unknown;
  retryable: boolean;
  timedOut: boolean;
  retryAfter?: string;
};

export type AttemptSuccess =
  | { ok: true; kind: "result"; status: number; result: IRResult }
  | { ok: true; kind: "stream"; status: number; firstParts: IRStreamPart[]; events: AsyncGenerator<SseEvent[]>; decoder: UpstreamStreamDecoder };

export type AttemptOutcome = AttemptSuccess | AttemptFailure;

const MAX_ERROR_BODY = 64 * 1024;

/** Upstream statuses that say the request itself is wrong: another provider would say the same. */
const REQUEST_ERRORS = new Set([400, 413, 422]);

function failure(status: number, message: string, extra: Partial<AttemptFailure> = {}): AttemptFailure {
  return { ok: false, status, message, retryable: !REQUEST_ERRORS.has(status), timedOut: false, ...extra };
}

async function readError(res: Response, codec: UpstreamCodec): Promise<AttemptFailure> {
  const text = (await res.text().catch(() => "")).slice(0, MAX_ERROR_BODY);
  let raw: unknown = text;
  try {
    raw = JSON.parse(text);
  } catch {}
  const message = codec.errorMessage(raw) ?? (text || res.statusText || `HTTP ${res.status}`);
  return failure(res.status, message, { raw, retryAfter: res.headers.get("retry-after") ?? undefined });
}

export type AttemptInput = {
  candidate: Candidate;
  codec: UpstreamCodec;
  request: IRRequest;
  signal: AbortSignal;
  /** resolves when the first-byte deadline passes */
  firstByteTimeoutMs: number;
};

/**
 * One call to one upstream, up to its first meaningful output: a whole result, or the
 * first decoded stream parts. Nothing has reached the client yet, so any failure here
 * can fall over to the next candidate.
 */
export async function attemptUpstream(input: AttemptInput, abort: AbortController): Promise<AttemptOutcome> {
  const { candidate, codec, request } = input;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort(new DOMException("first byte timeout", "TimeoutError"));
  }, input.firstByteTimeoutMs);
  const onClientAbort = () => abort.abort(input.signal.reason);
  input.signal.addEventListener("abort", onClientAbort, { once: true });
  try {
    const endpointId = candidate.endpoint.id;
    let body = adaptMaxTokensField(endpointId, codec.encodeRequest(request, candidate.endpoint.upstreamModel));
    const send = () => sendUpstream({ provider: candidate.endpoint.provider, apiKey: candidate.apiKey, path: codec.path, body, stream: request.stream, signal: abort.signal });
    let res: Response;
    try {
      res = await send();
      if (res.status === 400 && codec.path === "/chat/completions") {
        const refused = await readError(res, codec);
        if (!refusedMaxTokens(endpointId, body, refused.status, refused.message)) return refused;
        body = adaptMaxTokensField(endpointId, body);
        res = await send();
      }
    } catch (err) {
      return failure(0, timedOut ? "no response before the first-byte timeout" : `connection failed: ${(err as Error).message}`, { retryable: true, timedOut });
    }
    if (!res.ok) return await readError(res, codec);
    if (!request.stream) {
      // headers arrived in time; a non-streaming body may take as long as the generation does
      clearTimeout(timer);
      let json: unknown;
      try {
        json = await res.json();
      } catch (err) {
        return failure(timedOut ? 0 : 502, timedOut ? "no response before the first-byte timeout" : `invalid upstream body: ${(err as Error).message}`, { retryable: true, timedOut });
      }
      try {
        return { ok: true, kind: "result", status: res.status, result: codec.decodeResult(json) };
      } catch (err) {
        if (err instanceof UpstreamFormatError) return failure(502, `invalid upstream response: ${err.message}`, { raw: json, retryable: true });
        throw err;
      }
    }
    if (!res.body) return failure(502, "upstream sent no body", { retryable: true });
    const events = readSse(res.body);
    const decoder = codec.createStreamDecoder();
    // `start` and `usage` (Anthropic's message_start, a chat role chunk) are not output yet: an
    // error event right after them (an overloaded_error, say) can still fall over to the next
    // candidate, so they are held back until the first real part shows which way it goes.
    const preamble: IRStreamPart[] = [];
    try {
      for (;;) {
        const next = await events.next();
        const parts = next.done ? decoder.end() : next.value.flatMap((e) => decoder.push(e));
        preamble.push(...parts);
        // the upstream has started its answer: from here on its pace is the model's, not a dead connection's
        if (preamble.length > 0) clearTimeout(timer);
        const first = preamble.find((p) => p.type !== "start" && p.type !== "usage");
        if (first?.type === "error") {
          await events.return(undefined);
          return failure(first.status, first.message, { retryable: first.status === 429 || first.status >= 500 || first.status === 408 });
        }
        if (first) return { ok: true, kind: "stream", status: res.status, firstParts: preamble, events, decoder };
        if (next.done) return failure(502, "upstream stream ended before any output", { retryable: true });
      }
    } catch (err) {
      await events.return(undefined).catch(() => {});
      if (err instanceof SyntaxError || err instanceof UpstreamFormatError) return failure(502, `invalid upstream stream: ${err.message}`, { retryable: true });
      return failure(0, timedOut ? "no first event before the first-byte timeout" : `stream failed before any output: ${(err as Error).message}`, { retryable: true, timedOut });
    }
  } finally {
    clearTimeout(timer);
    input.signal.removeEventListener("abort", onClientAbort);
  }
}
