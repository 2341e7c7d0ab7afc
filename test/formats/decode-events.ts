import type { SseEvent, UpstreamStreamDecoder } from "../../src/ir/codec";
import type { IRStreamPart } from "../../src/ir/types";

/** The IR parts of upstream events, the way the gateway drives a decoder: each event pushed, then end() unless `end` is false. */
export function decodeAll(decoder: UpstreamStreamDecoder, events: SseEvent[], end = true): IRStreamPart[] {
  const parts = events.flatMap((event) => decoder.push(event));
  return end ? [...parts, ...decoder.end()] : parts;
}
