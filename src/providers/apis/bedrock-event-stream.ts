import { EventStreamCodec, getChunkedStream } from "@smithy/core/event-streams";
import { fromUtf8, toUtf8 } from "@smithy/core/serde";
import { streamEventOf } from "../../formats/bedrock-converse";
import type { SseEvent } from "../../ir/codec";

const WAITING = Symbol("waiting for the network");
/** Resolves after the microtasks queued now: a message already read resolves first, one still on the wire does not. */
const nextTurn = () => new Promise<typeof WAITING>((resolve) => setImmediate(() => resolve(WAITING)));

/**
 * Reads a ConverseStream answer, AWS's binary event stream (`application/vnd.amazon.eventstream`):
 * Smithy's codec, the one the AWS SDKs use, splits the bytes into messages and checks each
 * one's checksums; every message becomes one event for the Converse decoder. The messages that
 * arrived together are yielded together, as the SSE reader yields one network read's events, so
 * the stream pipeline writes once per read rather than once per message (a 50-chunk stream cost
 * 895 µs of gateway CPU per request one message at a time). A checksum that does not match, or a
 * message cut short, throws as a broken connection does.
 */
export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent[]> {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  const eventOf = (frame: Uint8Array): SseEvent => {
    const message = codec.decode(frame);
    return streamEventOf(message.headers, toUtf8(message.body));
  };
  // the reader is ours, so that leaving early cancels the body whatever the splitter awaits
  const reader = body.getReader();
  const reads: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => ({ next: () => reader.read() as Promise<IteratorResult<Uint8Array>> }) };
  const frames = getChunkedStream(reads)[Symbol.asyncIterator]();
  let next = frames.next();
  try {
    for (;;) {
      const first = await next;
      if (first.done) return;
      const batch = [eventOf(first.value)];
      // one timer per batch: every message that resolves before it belongs to this read
      const turn = nextTurn();
      for (;;) {
        next = frames.next();
        const ready = await Promise.race([next, turn]);
        if (ready === WAITING) break;
        if (ready.done) {
          yield batch;
          return;
        }
        batch.push(eventOf(ready.value));
      }
      yield batch;
    }
  } finally {
    // a read still pending ends with the cancel; what it would have thrown is no one's concern now
    next.catch(() => {});
    await reader.cancel().catch(() => {});
  }
}
