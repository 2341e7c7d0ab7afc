import { outputCap } from "../catalog/output-cap";
import type { SseEvent, UpstreamCodec, UpstreamStreamDecoder } from "../ir/codec";
import { UpstreamFormatError } from "../ir/codec";
import type { IRRequest, IRResult, IRStreamPart } from "../ir/types";
import { firstByteDeadline } from "../providers/first-byte-deadline";
import { adaptMaxTokensField, refusedMaxTokens } from "../providers/max-tokens-field";
import { withoutDroppedParams, withUnknownFields } from "../providers/request-fields";
import { sendUpstream } from "../providers/transport";
import { transportErrorMessage } from "../providers/transport-error";
import { CredentialExchangeError, type UpstreamApi } from "../providers/upstream-api";
import type { Candidate } from "./candidates";
import type { UpstreamOperation } from "./generation";
import { hasWebImages, type ImageFetcher, withInlineImages } from "./inline-images";
import { readSse } from "./sse-reader";
import { httpFailure, transportFailure, type UpstreamFailure } from "./upstream-failure";

/** One upstream event and the IR parts decoded from it; `event` is null for what the decoder produced when the upstream closed. */
export type DecodedEvent = { event: SseEvent | null; parts: IRStreamPart[] };

/** An upstream stream that has produced its first output: the rest is read by the stream pipeline. */
export type UpstreamStream = {
  /** the events read up to and including the one that gave the first output part */
  first: DecodedEvent[];
  events: AsyncGenerator<SseEvent[]>;
  decoder: UpstreamStreamDecoder;
};

/** `raw` is the upstream's JSON answer as it came, for same-format answers that pass it through */
export type UpstreamAnswer = { kind: "result"; result: IRResult; raw: Record<string, unknown> } | { kind: "stream"; stream: UpstreamStream };

/** The IR request as one candidate receives it: the output cap filled in where the endpoint has one (Anthropic requires it). */
function requestFor(ir: IRRequest, candidate: Candidate): IRRequest {
  const cap = outputCap(candidate.endpoint, ir.maxOutputTokens);
  return cap === ir.maxOutputTokens ? ir : { ...ir, maxOutputTokens: cap };
}

/**
 * A completion (Chat, Responses or Messages upstream) as a fallback-loop operation: one call
 * to one candidate, up to its first meaningful output (a whole result, or the first decoded
 * stream parts). `unknownFieldsOf` gives the client's top-level fields that candidate receives
 * beside the encoded ones (gateway/passthrough.ts).
 */
export function completionOperation(
  ir: IRRequest,
  apiOf: (candidate: Candidate) => UpstreamApi,
  unknownFieldsOf: (candidate: Candidate) => Readonly<Record<string, unknown>>,
  firstByteTimeoutMs: number,
  fetchImage?: ImageFetcher,
): UpstreamOperation<UpstreamAnswer> {
  // images are fetched once per request, for the first candidate whose API needs them inline
  let inlined: ReturnType<typeof withInlineImages> | undefined;
  return async (candidate, clientSignal) => {
    const api = apiOf(candidate);
    const { upstreamModel, provider } = candidate.endpoint;
    const codec = api.codec(upstreamModel);
    let source = ir;
    if (api.imagesInline && fetchImage && hasWebImages(ir)) {
      const fetched = await (inlined ??= withInlineImages(ir, fetchImage));
      // the client's URL is at fault, not the endpoint: a 400 that no other candidate would fix
      if (!fetched.ok) return { ok: false, kind: "http", status: 400, message: fetched.message, timedOut: false };
      source = fetched.request;
    }
    const deadline = firstByteDeadline(clientSignal, firstByteTimeoutMs);
    try {
      const endpointId = candidate.endpoint.id;
      const request = requestFor(source, candidate);
      // the operator's drop_params go last: they name fields as the upstream would receive them
      const finalBody = (encoded: Record<string, unknown>) =>
        withoutDroppedParams(adaptMaxTokensField(endpointId, encoded), candidate.endpoint.provider.dropParams);
      let body = finalBody(withUnknownFields(codec.encodeRequest(request, upstreamModel), unknownFieldsOf(candidate)));
      const url = api.completionUrl(provider, upstreamModel, request.stream, candidate.apiKey);
      const send = () => sendUpstream({ api, provider, credential: candidate.apiKey, url, body, stream: request.stream, signal: deadline.signal });
      let res: Response;
      try {
        res = await send();
        if (res.status === 400 && api.format(upstreamModel) === "openai-chat") {
          const refused = await httpFailure(res, codec.errorMessage);
          if (!refusedMaxTokens(endpointId, body, refused.status, refused.message)) return refused;
          body = finalBody(body);
          res = await send();
        }
      } catch (err) {
        if (err instanceof CredentialExchangeError && !deadline.timedOut())
          return { ok: false, kind: "http", status: err.status, message: err.message, timedOut: false };
        return transportFailure(deadline.timedOut() ? "no response before the first-byte timeout" : `connection failed: ${transportErrorMessage(err)}`, {
          timedOut: deadline.timedOut(),
        });
      }
      if (!res.ok) return await httpFailure(res, codec.errorMessage, api.errorStatus);
      if (!request.stream) {
        // headers arrived in time; a non-streaming body may take as long as the generation does
        deadline.met();
        return await readResult(res, codec, deadline.timedOut);
      }
      return await readFirstOutput(res, codec, api.readEvents ?? readSse, deadline);
    } finally {
      deadline.met();
    }
  };
}

async function readResult(
  res: Response,
  codec: UpstreamCodec,
  timedOut: () => boolean,
): Promise<{ ok: true; status: number; value: UpstreamAnswer } | UpstreamFailure> {
  let json: unknown;
  try {
    json = await res.json();
  } catch (err) {
    return timedOut()
      ? transportFailure("no response before the first-byte timeout", { timedOut: true })
      : transportFailure(`invalid upstream body: ${transportErrorMessage(err)}`, { status: 502 });
  }
  try {
    return { ok: true, status: res.status, value: { kind: "result", result: codec.decodeResult(json), raw: json as Record<string, unknown> } };
  } catch (err) {
    if (err instanceof UpstreamFormatError) return transportFailure(`invalid upstream response: ${err.message}`, { status: 502, raw: json });
    throw err;
  }
}

/**
 * Reads a stream up to its first output. `start` and `usage` (Anthropic's message_start, a chat
 * role chunk) are not output yet: an error event right after them (an overloaded_error, say)
 * can still fall over to the next candidate, so they are held back until the first real part
 * shows which way it goes.
 */
async function readFirstOutput(
  res: Response,
  codec: UpstreamCodec,
  readEvents: (body: ReadableStream<Uint8Array>) => AsyncGenerator<SseEvent[]>,
  deadline: { met: () => void; timedOut: () => boolean },
): Promise<{ ok: true; status: number; value: UpstreamAnswer } | UpstreamFailure> {
  if (!res.body) return transportFailure("upstream sent no body", { status: 502 });
  const events = readEvents(res.body);
  const decoder = codec.createStreamDecoder();
  const decoded: DecodedEvent[] = [];
  const preamble: IRStreamPart[] = [];
  try {
    for (;;) {
      const next = await events.next();
      const read: DecodedEvent[] = next.done ? [{ event: null, parts: decoder.end() }] : next.value.map((event) => ({ event, parts: decoder.push(event) }));
      for (const { parts } of read) preamble.push(...parts);
      decoded.push(...read);
      // the upstream has started its answer: from here on its pace is the model's, not a dead connection's
      if (preamble.length > 0) deadline.met();
      const first = preamble.find((p) => p.type !== "start" && p.type !== "usage");
      if (first?.type === "error") {
        await events.return(undefined);
        return { ok: false, kind: "event", status: first.status, message: first.message, timedOut: false };
      }
      if (first) return { ok: true, status: res.status, value: { kind: "stream", stream: { first: decoded, events, decoder } } };
      if (next.done) return transportFailure("upstream stream ended before any output", { status: 502 });
    }
  } catch (err) {
    await events.return(undefined).catch(() => {});
    if (err instanceof SyntaxError || err instanceof UpstreamFormatError) return transportFailure(`invalid upstream stream: ${err.message}`, { status: 502 });
    return transportFailure(
      deadline.timedOut() ? "no first event before the first-byte timeout" : `stream failed before any output: ${transportErrorMessage(err)}`,
      { timedOut: deadline.timedOut() },
    );
  }
}
