import type { CapturedInput, CapturedOutput, ObservedOperation } from "./captured-content";

/**
 * The document I/O logging seals for a generation, in the shape GET /generation/content answers
 * with (OpenRouter's generation content, without the error, which is read from the record): a completion's
 * messages, or the prompt of an embeddings or video request; the answer's text and reasoning.
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

export function keptContent(operation: ObservedOperation, input: CapturedInput, output: CapturedOutput | null): KeptContent {
  const prompt = operation === "embeddings" || operation === "video";
  return {
    input: prompt ? { prompt: promptOf(input) } : { messages: Array.isArray(input.messages) ? input.messages : [input.messages] },
    output: { completion: output && output.text !== "" ? output.text : null, reasoning: output && output.reasoning !== "" ? output.reasoning : null },
  };
}
