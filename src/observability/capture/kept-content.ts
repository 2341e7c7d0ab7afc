import type { CapturedInput, CapturedOutput, ObservedOperation } from "./captured-content";

/**
 * The document I/O logging seals for a generation, in the shape GET /generation/content answers
 * with (OpenRouter's generation content, without the error, which is read from the record): a completion's
 * messages, or the prompt of an embeddings, video or media request; the answer's text and reasoning
 * (a media answer's images or speech as data URLs, one a line).
 */
export type KeptContent = {
  input: { messages: unknown[] } | { prompt: string };
  output: { completion: string | null; reasoning: string | null };
};

function promptOf(input: CapturedInput): string {
  const [first] = Array.isArray(input.messages) ? (input.messages as Array<{ content?: unknown }>) : [];
  const content = first?.content;
  return typeof content === "string" ? content : JSON.stringify(content ?? null);
}

/** Operations whose request is one text (a prompt, the text to speak, a query, an audio file's name) rather than messages. */
const PROMPT_OPERATIONS: ReadonlySet<ObservedOperation> = new Set(["embeddings", "video", "image", "tts", "stt", "rerank"]);

export function keptContent(operation: ObservedOperation, input: CapturedInput, output: CapturedOutput | null): KeptContent {
  const prompt = PROMPT_OPERATIONS.has(operation);
  return {
    input: prompt ? { prompt: promptOf(input) } : { messages: Array.isArray(input.messages) ? input.messages : [input.messages] },
    output: { completion: output && output.text !== "" ? output.text : null, reasoning: output && output.reasoning !== "" ? output.reasoning : null },
  };
}
