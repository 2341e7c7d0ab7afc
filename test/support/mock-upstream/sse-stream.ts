// Writes SSE events one at a time (never buffered into one body), pausing
// between them, and can cut the connection mid-stream.
import type { SseEvent } from "./types.ts";

const encoder = new TextEncoder();

export function encodeSse(e: SseEvent): Uint8Array {
  return encoder.encode(`${e.event === undefined ? "" : `event: ${e.event}\n`}data: ${e.data}\n\n`);
}

/** Erroring a Response body stream makes Bun close the socket without the chunked
 *  terminator (measured on Bun 1.4.5); erroring with `undefined` keeps Bun from
 *  logging it. Before that, give the already enqueued events time to reach the socket. */
const FLUSH_BEFORE_CUT_MS = 15;

export type SseStreamOptions = {
  /** the bytes of one event: server-sent events unless the format frames them otherwise */
  encode?: (e: SseEvent) => Uint8Array;
  chunkDelayMs?: number;
  /** After this many events, cut the connection (no terminator). */
  failAfterEvents?: number;
  /** The stream finished (closed cleanly or was cut by us). */
  onEnd(): void;
  /** The client went away before the end. */
  onCancel(): void;
};

export function sseStream(events: SseEvent[], opts: SseStreamOptions): ReadableStream<Uint8Array> {
  let next = 0;
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (opts.failAfterEvents !== undefined && next >= opts.failAfterEvents) {
        await Bun.sleep(FLUSH_BEFORE_CUT_MS);
        opts.onEnd();
        controller.error(undefined);
        return;
      }
      if (next >= events.length) {
        opts.onEnd();
        controller.close();
        return;
      }
      if (next > 0 && opts.chunkDelayMs) await Bun.sleep(opts.chunkDelayMs);
      if (cancelled) return;
      controller.enqueue((opts.encode ?? encodeSse)(events[next++]!));
    },
    cancel() {
      cancelled = true;
      opts.onCancel();
    },
  });
}

/** A body that errors before its first byte: Bun then closes the socket without any response. */
export function resetStream(): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.error(undefined);
    },
  });
}
