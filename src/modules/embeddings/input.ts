import { countTokens } from "../../billing/tokenizer";
import type { IRRequest } from "../../ir/types";
import type { EmbeddingsRequest } from "./model";

type Input = EmbeddingsRequest["input"];

/** The text of every input (content-part inputs: their text parts), for estimates and token counts. */
export function inputTexts(input: Input): string[] {
  if (typeof input === "string") return [input];
  if (input.length === 0) return [];
  return (input as unknown[]).flatMap((item): string[] => {
    if (typeof item === "string") return [item];
    if (typeof item === "number" || Array.isArray(item)) return [];
    const parts = (item as { content: Array<{ type: string; text?: unknown }> }).content;
    return parts.filter((p) => p.type === "text" && typeof p.text === "string").map((p) => p.text as string);
  });
}

/** Tokens of pre-tokenised inputs (number[] or number[][]). */
export function tokenArrayCount(input: Input): number {
  if (typeof input === "string" || input.length === 0) return 0;
  if (typeof input[0] === "number") return input.length;
  return (input as unknown[]).reduce<number>((n, item) => n + (Array.isArray(item) && typeof item[0] === "number" ? item.length : 0), 0);
}

/** Prompt tokens when the upstream reports none. */
export async function countInputTokens(input: Input): Promise<number> {
  const counts = await Promise.all(inputTexts(input).map(countTokens));
  return counts.reduce((n, c) => n + c, 0) + tokenArrayCount(input);
}

/**
 * A stand-in IR request so that admission (worst-case reservation) treats the inputs like a
 * prompt with no output: one character per pre-tokenised token keeps the byte bound an upper bound.
 */
export function admissionRequest(body: EmbeddingsRequest): IRRequest {
  const texts = [...inputTexts(body.input), "x".repeat(tokenArrayCount(body.input))].filter(Boolean);
  return {
    model: body.model,
    messages: [{ role: "user", content: texts.map((text) => ({ type: "text" as const, text })) }],
    stream: false,
    maxOutputTokens: 0,
    sentParameters: [],
  };
}
