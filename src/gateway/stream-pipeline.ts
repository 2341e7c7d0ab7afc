import { transportErrorMessage } from "../providers/transport-error";
import type { InboundStreamEncoder } from "../ir/codec";
import type { IRFinishPart, IRStreamPart } from "../ir/types";
import type { ClientStream } from "./client-stream";
import type { UpstreamStream } from "./completion-attempt";
import { StreamMeter, type MeterReading } from "./stream-meter";

type ErrorPart = Extract<IRStreamPart, { type: "error" }>;

/** How a piped stream ended. Its last words (`pending` and the end part) are not written yet. */
export type PipedStream = {
  /** `finish` as the upstream sent it, `error` (the upstream's or the gateway's), or null when the client left before the end */
  end: IRFinishPart | ErrorPart | null;
  meter: MeterReading;
  /** SSE text of the parts read together with the end, held back with it */
  pending: string;
};

/**
 * upstream events → decoder → metering → encoder → client, one client write per upstream read.
 * Stops at the stream's end part without encoding it: the caller settles the generation and
 * makes it durable before the client is told the answer is complete.
 */
export async function pipeStream(upstream: UpstreamStream, encoder: InboundStreamEncoder, client: ClientStream, clock: () => number): Promise<PipedStream> {
  const meter = new StreamMeter(clock);
  let end: IRFinishPart | ErrorPart | null = null;
  let pending = "";
  /** meters and encodes parts up to the end part; true when the end was reached */
  const pass = (parts: IRStreamPart[]): boolean => {
    for (const part of parts) {
      meter.observe(part);
      if (part.type === "finish" || part.type === "error") {
        end = part;
        return true;
      }
      pending += encoder.encode(part);
    }
    return false;
  };
  const flush = (): boolean => {
    const ok = client.write(pending);
    pending = "";
    return ok;
  };
  try {
    if (!pass(upstream.firstParts) && flush()) {
      for (;;) {
        const next = await upstream.events.next();
        if (next.done) {
          if (!pass(upstream.decoder.end())) end = { type: "error", status: 502, message: "The provider closed the stream before it finished" };
          break;
        }
        const parts: IRStreamPart[] = [];
        for (const event of next.value) for (const part of upstream.decoder.push(event)) parts.push(part);
        if (pass(parts) || !flush()) break;
      }
    }
  } catch (err) {
    if (client.open) end ??= { type: "error", status: 502, message: `The provider stream failed: ${transportErrorMessage(err)}` };
  } finally {
    await upstream.events.return(undefined).catch(() => {});
  }
  return { end, meter: meter.reading(), pending };
}
