import { parseEventData } from "../../src/formats/json-object";
import type { EncodeContext, InboundCodec, IRErrorPart, SseEvent, StreamWriter, UpstreamCodec } from "../../src/ir/codec";
import type { Settlement } from "../../src/ir/settlement";
import type { IRFinishPart, IRRequest } from "../../src/ir/types";

export const CTX: EncodeContext = {
  generationId: "gen-1-abc",
  model: "t/model",
  created: 1700000000,
  request: { messages: [], stream: true } as unknown as IRRequest,
};

export const SETTLEMENT: Settlement = {
  cost: 0.000123,
  isByok: false,
  costDetails: { upstreamInferencePromptCost: 0.00002, upstreamInferenceCompletionsCost: 0.000103, upstreamInferenceCost: null },
  serviceMetadata: { requested: "t/model", model: "t/model", provider: "p", generation_id: "gen-1-abc", is_byok: false, attempts: [] },
};

/** An upstream event as the SSE reader yields it: its data parsed once when it is JSON. */
export function upstreamEvent(e: { event?: string; data: string }): SseEvent {
  const json = parseEventData(e.data);
  return json === undefined ? e : { ...e, json };
}

export type Driven = { written: string; end: IRFinishPart | IRErrorPart | undefined };

/** Upstream events through a decoder and a writer, as the stream pipeline drives them: stops at the end part, which is not written. */
export function drive(upstream: UpstreamCodec, writer: StreamWriter, events: Array<{ event?: string; data: string }>): Driven {
  const decoder = upstream.createStreamDecoder();
  let written = "";
  for (const e of events) {
    const event = upstreamEvent(e);
    const parts = decoder.push(event);
    written += writer.write(event, parts);
    const end = parts.find((p): p is IRFinishPart | IRErrorPart => p.type === "finish" || p.type === "error");
    if (end) return { written, end };
  }
  const parts = decoder.end();
  written += writer.write(null, parts);
  return { written, end: parts.find((p): p is IRFinishPart | IRErrorPart => p.type === "finish" || p.type === "error") };
}

/** The whole client stream: what was written as it came, then the end. */
export function wholeStream(upstream: UpstreamCodec, writer: StreamWriter, events: Array<{ event?: string; data: string }>, settlement = SETTLEMENT): string {
  const { written, end } = drive(upstream, writer, events);
  if (!end) return written;
  return written + (end.type === "finish" ? writer.finish(end, settlement) : writer.error(end));
}

export const passthroughWriter = (inbound: InboundCodec<any>, ctx: EncodeContext = CTX): StreamWriter => inbound.passthrough.createStreamWriter(ctx);
