import type { EncodeContext, SseEvent } from "../../../src/ir/codec";

export const ctx = (extra: Partial<EncodeContext> = {}): EncodeContext => ({
  generationId: "gen-123",
  model: "acme/alpha",
  created: 1_700_000_000,
  request: { messages: [], stream: true, sentParameters: [] },
  ...extra,
});

/** Turns chunk objects into SSE events the way eventsource-parser would hand them over. */
export const events = (...chunks: Array<unknown>): SseEvent[] => chunks.map((chunk) => ({ data: typeof chunk === "string" ? chunk : JSON.stringify(chunk) }));

export const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "gpt-x",
  choices,
  ...extra,
});

export const delta = (d: Record<string, unknown>, finish: string | null = null) => chunk([{ index: 0, delta: d, finish_reason: finish }]);
