import { createParser } from "eventsource-parser";
import type { SseEvent, UpstreamStreamDecoder } from "../../../src/ir/codec";
import type { IRStreamPart } from "../../../src/ir/types";

/** Splits SSE text into events the way the gateway's upstream reader does. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e.event ? { event: e.event, data: e.data } : { data: e.data }) });
  parser.feed(text);
  return events;
}

/** One Anthropic SSE event as the real API writes it. */
export const wire = (payload: { type: string } & Record<string, unknown>): string =>
  `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;

export function decodeAll(decoder: UpstreamStreamDecoder, events: SseEvent[]): IRStreamPart[] {
  return [...events.flatMap((e) => decoder.push(e)), ...decoder.end()];
}
