import { EventStreamCodec, getChunkedStream } from "@smithy/core/event-streams";
import { fromUtf8, toUtf8 } from "@smithy/core/serde";
import { streamEventOf } from "../../formats/bedrock-converse";
import type { SseEvent } from "../../ir/codec";

/**
 * Reads a ConverseStream answer, AWS's binary event stream (`application/vnd.amazon.eventstream`):
 * Smithy's codec, the one the AWS SDKs use, splits the bytes into messages and checks each
 * one's checksums; every message becomes one event for the Converse decoder. A checksum that does
 * not match, or a message cut short, throws as a broken connection does.
 */
export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent[]> {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  try {
    for await (const frame of getChunkedStream(body)) {
      const message = codec.decode(frame);
      yield [streamEventOf(message.headers, toUtf8(message.body))];
    }
  } finally {
    await body.cancel().catch(() => {});
  }
}
