import type { IRAssistantPart } from "../../ir/types";

/**
 * Thought signatures (https://ai.google.dev/gemini-api/docs/thought-signatures) ride in the IR as
 * reasoning parts of origin `gemini` that carry the signature as their payload (`encrypted`) and,
 * when it came on a function call, that call's id (`id`): the shape OpenRouter hands Chat clients
 * (`reasoning.encrypted`, format google-gemini-v1, `id` = the tool call), which every inbound
 * format carries back intact (Responses and Messages pack it with its origin).
 */

/**
 * Google's documented stand-in for a function call Gemini did not make (another model's turn, a
 * hand-written history): Gemini 3 refuses a step whose first call carries no signature. This
 * spelling is the one both the Gemini API and Vertex AI document
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/thought-signatures).
 */
export const PLACEHOLDER_SIGNATURE = "skip_thought_signature_validator";

/** The signatures of one assistant turn: by the tool call they came on, and the others (a text part's). */
export type TurnSignatures = { byCall: ReadonlyMap<string, string>; loose: readonly string[] };

export function turnSignatures(content: readonly IRAssistantPart[]): TurnSignatures {
  const calls = new Set(content.flatMap((part) => (part.type === "tool_call" ? [part.id] : [])));
  const byCall = new Map<string, string>();
  const loose: string[] = [];
  for (const part of content) {
    if (part.type !== "reasoning" || part.origin !== "gemini" || !part.encrypted) continue;
    if (part.id !== undefined && calls.has(part.id)) byCall.set(part.id, part.encrypted);
    else loose.push(part.encrypted);
  }
  return { byCall, loose };
}
