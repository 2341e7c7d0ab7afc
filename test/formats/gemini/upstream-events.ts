import type { SseEvent } from "../../../src/ir/codec";
import type { IRStreamPart } from "../../../src/ir/types";

/**
 * Gemini streams as `streamGenerateContent?alt=sse` sends them: each event a whole
 * GenerateContentResponse with what is new, usage on every event, the finish reason on the last.
 */

const usage = (candidates: number, thoughts: number) => ({
  promptTokenCount: 42,
  candidatesTokenCount: candidates,
  thoughtsTokenCount: thoughts,
  cachedContentTokenCount: 10,
  totalTokenCount: 42 + candidates + thoughts,
});
const event = (parts: unknown[], extra: Record<string, unknown> = {}): SseEvent => ({
  data: JSON.stringify({
    candidates: [{ content: { role: "model", parts }, index: 0, ...extra }],
    usageMetadata: usage(3, 20),
    modelVersion: "gemini-3-flash-preview",
    responseId: "resp-1",
  }),
});

/** Thoughts, text, two parallel calls (the first signed), then the finish. */
export const realistic: SseEvent[] = [
  event([{ text: "**Planning**\nThe user wants", thought: true }]),
  event([{ text: " the weather.", thought: true }]),
  event([{ text: "Let me check." }]),
  event([
    { functionCall: { name: "get_weather", args: { city: "Paris" } }, thoughtSignature: "c2lnLTE=" },
    { functionCall: { name: "get_weather", args: { city: "Rome" } } },
  ]),
  event([], { finishReason: "STOP" }),
];

/**
 * IR stream parts written as a Gemini stream, as Gemini would send that content: the test-side
 * encoder the stream-grammar property drives the decoder with. Tool-call arguments arrive whole;
 * a reasoning part's payload goes out as the signature of the part after it.
 */
export function geminiEvents(parts: readonly IRStreamPart[]): SseEvent[] {
  const events: SseEvent[] = [];
  const blocks = new Map<number, { kind: string; id?: string; name?: string; args: string; encrypted?: string }>();
  let pendingSignature: string | undefined;
  const push = (wire: Record<string, unknown>) => {
    const signed = pendingSignature !== undefined ? { ...wire, thoughtSignature: pendingSignature } : wire;
    pendingSignature = undefined;
    events.push(event([signed]));
  };
  for (const part of parts) {
    switch (part.type) {
      case "block-start":
        blocks.set(part.index, {
          kind: part.block.type,
          args: "",
          ...(part.block.type === "tool_call" ? { id: part.block.id, name: part.block.name } : {}),
          ...(part.block.type === "reasoning" && part.block.encrypted ? { encrypted: part.block.encrypted } : {}),
        });
        break;
      case "text-delta":
      case "refusal-delta":
        if (part.text !== "") push({ text: part.text });
        break;
      case "reasoning-delta":
        if (part.text !== "") push({ text: part.text, thought: true });
        break;
      case "reasoning-signature":
      case "reasoning-encrypted": {
        const block = blocks.get(part.index);
        if (block) block.encrypted = part.type === "reasoning-signature" ? part.signature : part.data;
        break;
      }
      case "tool-args-delta": {
        const block = blocks.get(part.index);
        if (block) block.args += part.delta;
        break;
      }
      case "block-end": {
        const block = blocks.get(part.index);
        if (block?.kind === "reasoning" && block.encrypted) pendingSignature = block.encrypted;
        if (block?.kind === "tool_call") push({ functionCall: { id: block.id, name: block.name, args: argsObject(block.args) } });
        break;
      }
      case "finish":
        events.push({
          data: JSON.stringify({
            candidates: [
              {
                content: { role: "model", parts: pendingSignature ? [{ text: "", thoughtSignature: pendingSignature }] : [] },
                finishReason: part.finishReason === "length" ? "MAX_TOKENS" : "STOP",
              },
            ],
            usageMetadata: usage(1, 0),
          }),
        });
        break;
      case "error":
        if (pendingSignature !== undefined) push({ text: "" });
        events.push({ data: JSON.stringify({ error: { code: part.status, message: part.message, status: "UNAVAILABLE" } }) });
        break;
      default:
        break;
    }
  }
  return events;
}

/** Gemini sends arguments as an object; generated argument text that is not one goes as `{}`. */
function argsObject(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}
