import { EventStreamCodec, getChunkedStream } from "@smithy/core/event-streams";
import { fromUtf8 } from "@smithy/core/serde";
import { streamEventOf } from "../../formats/bedrock-converse";
import type { SseEvent } from "../../ir/codec";

const decoder = new TextDecoder();

/** the header texts a stream repeats (names, event types, content types) are kept by length, at most a few of each */
const HEADER_TEXT_BYTES = 32;
const HEADER_TEXTS_PER_LENGTH = 8;
const headerTexts = new Map<number, { bytes: Uint8Array; text: string }[]>();

/**
 * The codec's text decoding, injected as its constructor allows. Smithy's own `toUtf8` makes a
 * Buffer over the view's ArrayBuffer for every header name and string value (six a message
 * here); every message repeats the same few, so a short one is looked up by its bytes instead,
 * and decoded once.
 */
function headerText(bytes: Uint8Array): string {
  if (bytes.length > HEADER_TEXT_BYTES) return decoder.decode(bytes);
  const seen = headerTexts.get(bytes.length);
  if (seen !== undefined)
    for (const entry of seen) {
      let same = true;
      for (let i = 0; i < bytes.length && same; i++) same = entry.bytes[i] === bytes[i];
      if (same) return entry.text;
    }
  const text = decoder.decode(bytes);
  if (seen === undefined) headerTexts.set(bytes.length, [{ bytes: bytes.slice(), text }]);
  else if (seen.length < HEADER_TEXTS_PER_LENGTH) seen.push({ bytes: bytes.slice(), text });
  return text;
}

/**
 * Reads a ConverseStream answer, AWS's binary event stream (`application/vnd.amazon.eventstream`):
 * Smithy's splitter and codec, the ones the AWS SDKs use, cut the bytes into messages and check
 * each one's checksums; every message becomes one event for the Converse decoder. The messages of
 * one network read are yielded together, as the SSE reader yields one read's events, so the stream
 * pipeline writes once per read rather than once per message. The splitter asks for the next read
 * only once it has handed out every whole message of the last one, so that request is where a
 * batch ends. A checksum that does not match, or a message cut short, throws as a broken
 * connection does.
 */
export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent[]> {
  const codec = new EventStreamCodec(headerText, fromUtf8);
  // the reader is ours, so that leaving early cancels the body whatever the splitter awaits
  const reader = body.getReader();
  let reading = false;
  const reads: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        reading = true;
        return reader.read() as Promise<IteratorResult<Uint8Array>>;
      },
    }),
  };
  const frames = getChunkedStream(reads)[Symbol.asyncIterator]();
  let batch: SseEvent[] = [];
  let next: Promise<IteratorResult<Uint8Array>> | undefined;
  try {
    for (;;) {
      reading = false;
      // resuming the splitter runs it at once up to its next message or its next read
      next = frames.next();
      if (reading && batch.length > 0) {
        const read = batch;
        batch = [];
        yield read;
      }
      const frame = await next;
      if (frame.done) break;
      const message = codec.decode(frame.value);
      batch.push(streamEventOf(message.headers, decoder.decode(message.body)));
    }
    if (batch.length > 0) yield batch;
  } finally {
    // a read still pending ends with the cancel; what it would have thrown is no one's concern now
    next?.catch(() => {});
    await reader.cancel().catch(() => {});
  }
}
