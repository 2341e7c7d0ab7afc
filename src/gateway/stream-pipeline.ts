import { transportErrorMessage } from "../providers/transport-error";
import type { IRErrorPart, SseEvent, StreamWriter } from "../ir/codec";
import type { IRFinishPart, IRStreamPart } from "../ir/types";
import type { ClientStream } from "./client-stream";
import type { DecodedEvent, UpstreamStream } from "./completion-attempt";
import { StreamMeter, type MeterReading } from "./stream-meter";
import type { StreamContent } from "../observability/capture/result-content";
import type { CapturedOutput } from "../observability/capture/captured-content";

/** How a piped stream ended. Its last words (`pending` and the end part) are not written yet. */
export type PipedStream = {
  /** `finish` as the upstream sent it, `error` (the upstream's or the gateway's), or null when the client left before the end */
  end: IRFinishPart | IRErrorPart | null;
  meter: MeterReading;
  /** SSE text of the events read together with the end, held back with it */
  pending: string;
  /** the answer's content, when the caller asked for it to be collected */
  content: CapturedOutput | null;
};

/**
 * upstream events → decoder → metering (and content collection, for a request that is forwarded
 * or kept) → writer → client, one client write per upstream read.
 * Stops at the stream's end part without writing it: the caller settles the generation and
 * makes it durable before the client is told the answer is complete.
 */
export async function pipeStream(upstream: UpstreamStream, writer: StreamWriter, client: ClientStream, clock: () => number, content: StreamContent | null = null): Promise<PipedStream> {
  const meter = new StreamMeter(clock);
  let end: IRFinishPart | IRErrorPart | null = null;
  let pending = "";
  /** meters and writes one decoded event, up to the end part; true when the end was reached */
  const pass = (event: SseEvent | null, parts: IRStreamPart[]): boolean => {
    for (const part of parts) {
      meter.observe(part);
      content?.observe(part);
      if (part.type === "finish" || part.type === "error") {
        end = part;
        break;
      }
    }
    pending += writer.write(event, parts);
    return end !== null;
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
  } catch (err) {
    if (client.open) end ??= { type: "error", status: 502, message: `The provider stream failed: ${transportErrorMessage(err)}` };
  } finally {
    await upstream.events.return(undefined).catch(() => {});
  }
  return { end, meter: meter.reading(), pending, content: content?.output() ?? null };
}
