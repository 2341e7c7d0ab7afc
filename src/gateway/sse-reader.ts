import { createParser } from "eventsource-parser";
import type { SseEvent } from "../ir/codec";

/**
 * Reads server-sent events from a response body as they arrive. The iterator ends when
 * the body ends, and throws when the connection breaks mid-stream.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const queue: SseEvent[] = [];
  const parser = createParser({
    onEvent(e) {
      queue.push(e.event ? { event: e.event, data: e.data } : { data: e.data });
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      while (queue.length) yield queue.shift()!;
    }
    // an event cut off without its blank line is incomplete and is dropped
    parser.feed(decoder.decode());
    while (queue.length) yield queue.shift()!;
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => {});
  }
}
