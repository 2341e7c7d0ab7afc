import type { IRErrorPart, SseEvent, StreamWriter } from "../ir/codec";
import type { IRFinishPart, IRStreamPart } from "../ir/types";
import type { CapturedOutput } from "../observability/capture/captured-content";
import type { StreamContent } from "../observability/capture/result-content";
import { transportErrorMessage } from "../providers/transport-error";
import type { ClientStream } from "./client-stream";
import type { DecodedEvent, UpstreamStream } from "./completion-attempt";
import type { StreamedAnswer } from "./response-cache/cached-answer";
import { type MeterReading, StreamMeter } from "./stream-meter";

/** How a piped stream ended. Its last words (`pending` and the end part) are not written yet. */
export type PipedStream = {
  /** `finish` as the upstream sent it, `error` (the upstream's or the gateway's), or null when the client left before the end */
  end: IRFinishPart | IRErrorPart | null;
  meter: MeterReading;
  /** SSE text of the event that carried the end, held back with it */
  pending: string;
  /** the answer's content, when the caller asked for it to be collected */
  content: CapturedOutput | null;
};

/**
 * upstream events → decoder → metering (and content collection, for a request that is forwarded
 * or kept) → writer → client, one client write per upstream read.
 * Stops at the stream's end part without writing it: the caller settles the generation and
 * makes it durable before the client is told the answer is complete. Only the event that carries
 * the end waits for that: the events read before it in the same read are written at once, so a
 * short answer that arrives in one read (the whole of it, often) reaches the client before the
 * record's commit, not after it.
 */
export async function pipeStream(
  upstream: UpstreamStream,
  writer: StreamWriter,
  client: ClientStream,
  clock: () => number,
  content: StreamContent | null = null,
  /** collects the whole answer for the response cache, for a request whose answer is kept */
  answer: StreamedAnswer | null = null,
): Promise<PipedStream> {
  const meter = new StreamMeter(clock);
  let end: IRFinishPart | IRErrorPart | null = null;
  /** text for the client with this read */
  let pending = "";
  /** text of the event that carried the end part (the upstream's or the decoder's) */
  let held = "";
  let endRead = false;
  /** meters and writes one decoded event, up to the end part; true when the end was reached */
  const pass = (event: SseEvent | null, parts: IRStreamPart[]): boolean => {
    for (const part of parts) {
      meter.observe(part);
      content?.observe(part);
      answer?.observe(part);
      if (part.type === "finish" || part.type === "error") {
        end = part;
        break;
      }
    }
    endRead = end !== null;
    const text = writer.write(event, parts);
    if (endRead) held += text;
    else pending += text;
    return endRead;
  };
  const passAll = (decoded: readonly DecodedEvent[]): boolean => decoded.some(({ event, parts }) => pass(event, parts));
  /** one upstream read: each event decoded as it is written, none after the end */
  const passRead = (events: readonly SseEvent[]): boolean => events.some((event) => pass(event, upstream.decoder.push(event)));
  const flush = (): boolean => {
    const ok = client.write(pending);
    pending = "";
    return ok;
  };
  try {
    if (!passAll(upstream.first) && flush()) {
      for (;;) {
        const next = await upstream.events.next();
        if (next.done) {
          if (!pass(null, upstream.decoder.end())) end = { type: "error", status: 502, message: "The provider closed the stream before it finished" };
          break;
        }
        if (passRead(next.value) || !flush()) break;
      }
    }
    // what was read before the end, in the read that brought it
    if (endRead) flush();
  } catch (err) {
    if (client.open) end ??= { type: "error", status: 502, message: `The provider stream failed: ${transportErrorMessage(err)}` };
  } finally {
    await upstream.events.return(undefined).catch(() => {});
  }
  // text not written yet (the decoder's own closing parts before a gateway-made error) goes ahead of the held end
  return { end, meter: meter.reading(), pending: pending + held, content: content?.output() ?? null };
}
