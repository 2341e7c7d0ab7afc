import type { Static } from "elysia";
import type { IRReasoningPart, IRRequest } from "../../ir/types";
import { packForeignSignature } from "../reasoning-signature";
import type {
  OutputFunctionCallSchema,
  OutputItemSchema,
  OutputMessageSchema,
  OutputReasoningSchema,
  OutputTextSchema,
  RefusalContentSchema,
} from "./schema-output";

/**
 * Output items of an OpenResponsesResult, shared by encode-result and encode-stream so that a
 * streamed response's final output is exactly the non-streamed one.
 */

export type OutputTextContent = Static<typeof OutputTextSchema>;
export type RefusalContent = Static<typeof RefusalContentSchema>;
export type MessageContent = OutputTextContent | RefusalContent;
export type OutputMessage = Static<typeof OutputMessageSchema>;
export type OutputFunctionCall = Static<typeof OutputFunctionCallSchema>;
export type OutputReasoning = Static<typeof OutputReasoningSchema>;
export type OutputItem = Static<typeof OutputItemSchema>;
export type ItemStatus = OutputMessage["status"];

/** Ids derive from the generation id and output index so they are stable within (and across) encodings. */
export const derivedItemId = (prefix: string, generationId: string, outputIndex: number): string => `${prefix}_${generationId}_${outputIndex}`;

export const outputText = (text: string): OutputTextContent => ({ type: "output_text", text, annotations: [] });
export const refusal = (text: string): RefusalContent => ({ type: "refusal", refusal: text });

export function messageItem(id: string, content: MessageContent[], status: ItemStatus): OutputMessage {
  return { type: "message", id, role: "assistant", status, content };
}

export function functionCallItem(id: string, callId: string, name: string, args: string, status: ItemStatus): OutputFunctionCall {
  return { type: "function_call", id, call_id: callId, name, arguments: args, status };
}

/** What a reasoning item is built from: an IR reasoning part, or a streamed block plus its deltas. */
export type ReasoningData = Omit<IRReasoningPart, "type">;

/**
 * How reasoning text reaches a Responses client: one shape per request, whatever the upstream
 * made. Clients that ask for `reasoning.summary` read summaries only (@ai-sdk/openai, LangChain);
 * the others read reasoning_text (@openrouter/agent), so they get that.
 */
export type ReasoningShape = "summary_text" | "reasoning_text";

export const reasoningShapeOf = (request: Pick<IRRequest, "reasoning">): ReasoningShape => (request.reasoning?.summary ? "summary_text" : "reasoning_text");

export function reasoningItemId(reasoning: Pick<ReasoningData, "origin" | "id">, generationId: string, outputIndex: number): string {
  return reasoning.origin === "openai-responses" && reasoning.id ? reasoning.id : derivedItemId("rs", generationId, outputIndex);
}

/**
 * OpenAI's payload goes out as is; another upstream's signature or payload is packed (with its
 * origin) so that a client replaying the item sends it back to the kind of upstream that made it.
 * Gemini's thoughts carry no payload (their signatures travel apart), yet are packed too: replayed
 * bare, they would read as OpenAI reasoning items and go to an OpenAI upstream.
 */
export function encryptedContent(reasoning: ReasoningData): string | undefined {
  if (reasoning.origin === "openai-responses") return reasoning.encrypted;
  if (reasoning.signature === undefined && reasoning.encrypted === undefined && reasoning.origin !== "gemini") return undefined;
  return packForeignSignature({ type: "reasoning", ...reasoning });
}

export function reasoningItem(id: string, reasoning: ReasoningData, shape: ReasoningShape): OutputReasoning {
  const text = reasoning.text;
  const encrypted = encryptedContent(reasoning);
  return {
    type: "reasoning",
    id,
    summary: shape === "summary_text" && text !== "" ? [{ type: "summary_text", text }] : [],
    ...(shape === "reasoning_text" && text !== "" ? { content: [{ type: "reasoning_text" as const, text }] } : {}),
    ...(encrypted !== undefined ? { encrypted_content: encrypted } : {}),
  };
}

/** `output_text` of a response: every output_text part in order. */
export function joinOutputText(output: readonly OutputItem[]): string {
  let text = "";
  for (const item of output) {
    if (item.type !== "message") continue;
    for (const part of item.content) if (part.type === "output_text") text += part.text;
  }
  return text;
}
