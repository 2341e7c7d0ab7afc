import type { InboundStreamEncoder, SseEvent, UpstreamStreamDecoder } from "../ir/codec";
import type { IRStreamPart } from "../ir/types";
import { UsageTracker } from "./usage-tracker";

const encoder = new TextEncoder();
/** A keep-alive comment while the upstream has not answered yet (clients ignore comments). */
export const KEEPALIVE = encoder.encode(": PROCESSING\n\n");

export type StreamEnd = {
  finished: boolean;
  cancelled: boolean;
  errorMessage: string | null;
  finishReason: string | null;
  nativeFinishReason: string | null;
  upstreamId: string | null;
  firstTokenAt: number | null;
  /** the SSE text of the stream's end (its finish or error event), held back until the caller has recorded the generation */
  tail: string;
};

export type UpstreamStream = {
  firstParts: IRStreamPart[];
  events: AsyncGenerator<SseEvent[]>;
  decoder: UpstreamStreamDecoder;
};

/**
 * Moves one upstream stream to the client as its events arrive: decode, let the caller
 * complete `finish` (cost, metadata), encode, write. Ends with a terminal error event when
 * the upstream breaks off, and reports how it ended. The last write, which carries the end,
 * is left to the caller (`tail`): the generation must be durable before the client has it all.
 */
export async function pumpStream(opts: {
  upstream: UpstreamStream;
  encoder: InboundStreamEncoder;
  write: (chunk: Uint8Array) => boolean;
  usage: UsageTracker;
  isCancelled: () => boolean;
  clock: () => number;
  /** called with the finish part before it is encoded; may mutate it */
  onFinish: (part: Extract<IRStreamPart, { type: "finish" }>) => void;
}): Promise<StreamEnd> {
  const end: StreamEnd = { finished: false, cancelled: false, errorMessage: null, finishReason: null, nativeFinishReason: null, upstreamId: null, firstTokenAt: null, tail: "" };
  // the SSE text of one upstream read, written to the client in one chunk
  let pending = "";
  const flush = (): boolean => {
    if (pending === "") return true;
    const ok = opts.write(encoder.encode(pending));
    pending = "";
    return ok;
  };
  const emit = (part: IRStreamPart): void => {
    opts.usage.observe(part);
    if (part.type === "start") end.upstreamId = part.id;
    if (end.firstTokenAt === null && (part.type === "text-delta" || part.type === "reasoning-delta" || part.type === "tool-args-delta" || part.type === "block-start"))
      end.firstTokenAt = opts.clock();
    if (part.type === "finish") {
      opts.onFinish(part);
      end.finished = true;
      end.finishReason = part.finishReason;
      end.nativeFinishReason = part.nativeFinishReason ?? null;
    }
    if (part.type === "error") {
      end.finished = true;
      end.finishReason = "error";
      end.errorMessage = part.message;
    }
    pending += opts.encoder.encode(part);
  };
  const emitAll = (parts: IRStreamPart[]): boolean => {
    for (const p of parts) {
      if (end.finished) break;
      emit(p);
    }
    return end.finished || flush();
  };
  try {
    emitAll(opts.upstream.firstParts);
    while (!end.finished && !opts.isCancelled()) {
      const next = await opts.upstream.events.next();
      if (next.done) break;
      const parts: IRStreamPart[] = [];
      for (const event of next.value) parts.push(...opts.upstream.decoder.push(event));
      if (!emitAll(parts)) break;
    }
    if (!end.finished && !opts.isCancelled()) {
      emitAll(opts.upstream.decoder.end());
      if (!end.finished) emitAll([{ type: "error", status: 502, message: "The provider closed the stream before it finished" }]);
    }
  } catch (err) {
    if (!opts.isCancelled() && !end.finished) emitAll([{ type: "error", status: 502, message: `The provider stream failed: ${(err as Error).message}` }]);
  } finally {
    await opts.upstream.events.return(undefined).catch(() => {});
  }
  end.cancelled = opts.isCancelled() && !end.finished;
  end.tail = end.cancelled ? "" : pending;
  return end;
}
