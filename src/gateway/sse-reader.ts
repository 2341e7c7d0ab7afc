import { createParser } from "eventsource-parser";
import { parseEventData } from "../formats/json-object";
import type { SseEvent } from "../ir/codec";

/**
 * Reads server-sent events from a response body as they arrive, yielding the events of each
 * network read together (one await per read, not per event). The iterator ends when the body
 * ends, and throws when the connection breaks mid-stream.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent[]> {
  let queue: SseEvent[] = [];
  const parser = createParser({
    onEvent(e) {
      const json = parseEventData(e.data);
      if (json === undefined) queue.push(e.event ? { event: e.event, data: e.data } : { data: e.data });
      else queue.push(e.event ? { event: e.event, data: e.data, json } : { data: e.data, json });
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      if (queue.length) {
        const batch = queue;
        queue = [];
        yield batch;
      }
    }
    // an event cut off without its blank line is incomplete and is dropped
    parser.feed(decoder.decode());
    if (queue.length) yield queue;
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => {});
  }
}
