import type { EncodeContext, SseEvent, UpstreamStreamDecoder } from "../../../src/ir/codec";
import type { IRStreamPart } from "../../../src/ir/types";

export const ctx = (extra: Partial<EncodeContext> = {}): EncodeContext => ({
  generationId: "gen-123",
  model: "acme/alpha",
  created: 1_700_000_000,
  request: { messages: [], stream: true, sentParameters: [] },
  ...extra,
});

/** Turns chunk objects into SSE events the way eventsource-parser would hand them over. */
export const events = (...chunks: Array<unknown>): SseEvent[] =>
  chunks.map((chunk) => ({ data: typeof chunk === "string" ? chunk : JSON.stringify(chunk) }));

export function decodeAll(decoder: UpstreamStreamDecoder, input: SseEvent[], end = true): IRStreamPart[] {
  const parts = input.flatMap((event) => decoder.push(event));
  return end ? [...parts, ...decoder.end()] : parts;
}

/** Splits SSE text written by an encoder back into events. */
export function parseSse(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .filter((frame) => frame !== "")
    .map((frame) => {
      if (!frame.startsWith("data: ")) throw new Error(`not a data frame: ${frame}`);
      return { data: frame.slice("data: ".length) };
    });
}

export const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "gpt-x",
  choices,
  ...extra,
});

export const delta = (d: Record<string, unknown>, finish: string | null = null) => chunk([{ index: 0, delta: d, finish_reason: finish }]);
