// Gemini generateContent (AI Studio and Vertex AI's publishers/google): the GenerateContentResponse
// JSON, and the `alt=sse` stream where each event is one such response holding what is new (text
// and thought pieces, whole function calls), the finish reason and usage on the last. Thoughts are
// parts with `thought: true`; candidatesTokenCount excludes thoughtsTokenCount, which is apart.

import { chunksOf, finishOf, joined, parseArguments, sse, usageOf } from "./turn-parts.ts";
import type { MockTurn, RenderContext, SseEvent } from "./types.ts";

type Part = Record<string, unknown>;

function finishReason(turn: MockTurn): string {
  // a refusal is Gemini's safety block: the text said so far, then SAFETY
  if (!turn.finish && turn.refusal !== undefined) return "SAFETY";
  switch (finishOf(turn)) {
    case "length":
      return "MAX_TOKENS";
    case "content_filter":
      return "SAFETY";
    default:
      return "STOP";
  }
}

function usageMetadata(turn: MockTurn): Record<string, number> | undefined {
  if (turn.omitUsage) return undefined;
  const u = usageOf(turn);
  const usage: Record<string, number> = { promptTokenCount: u.input, candidatesTokenCount: u.output - u.reasoning, totalTokenCount: u.input + u.output };
  if (u.reasoning > 0) usage.thoughtsTokenCount = u.reasoning;
  if (u.cached > 0) usage.cachedContentTokenCount = u.cached;
  return usage;
}

/** The function calls, each with its own signature; the turn's reasoning signature goes on the first call that has none. */
function callParts(turn: MockTurn): Part[] {
  let loose = turn.reasoning?.signature;
  return (turn.toolCalls ?? []).map((call) => {
    const part: Part = { functionCall: { id: call.id, name: call.name, args: parseArguments(call.arguments) } };
    const signature = call.signature ?? loose;
    if (call.signature === undefined) loose = undefined;
    if (signature !== undefined) part.thoughtSignature = signature;
    return part;
  });
}

/** A turn without calls carries its reasoning signature on its last part, as Gemini 3 does. */
const textSignature = (turn: MockTurn): string | undefined => ((turn.toolCalls ?? []).length === 0 ? turn.reasoning?.signature : undefined);

const texts = (turn: MockTurn) => [...chunksOf(turn.text), ...(turn.refusal === undefined ? [] : [turn.refusal])];

function envelope(turn: MockTurn, ctx: RenderContext, parts: Part[], last: boolean): Record<string, unknown> {
  const candidate: Record<string, unknown> = { content: { role: "model", parts }, index: 0 };
  if (last) candidate.finishReason = finishReason(turn);
  const body: Record<string, unknown> = { candidates: [candidate] };
  const usage = usageMetadata(turn);
  if (usage && last) body.usageMetadata = usage;
  // the usage so far rides on every event: the prompt side is known from the first
  else if (usage)
    body.usageMetadata = {
      promptTokenCount: usage.promptTokenCount,
      ...(usage.cachedContentTokenCount ? { cachedContentTokenCount: usage.cachedContentTokenCount } : {}),
      totalTokenCount: usage.promptTokenCount,
    };
  body.modelVersion = ctx.model;
  body.responseId = turn.id ?? `mockresp${ctx.seq}`;
  return body;
}

export function renderGeminiJson(turn: MockTurn, ctx: RenderContext): unknown {
  const parts: Part[] = [];
  if (turn.reasoning && joined(turn.reasoning.text) !== "") parts.push({ text: joined(turn.reasoning.text), thought: true });
  const text = texts(turn).join("");
  const signature = textSignature(turn);
  if (text !== "" || turn.text !== undefined) parts.push(signature !== undefined ? { text, thoughtSignature: signature } : { text });
  else if (signature !== undefined) parts.push({ text: "", thoughtSignature: signature });
  parts.push(...callParts(turn));
  return envelope(turn, ctx, parts, true);
}

export function renderGeminiEvents(turn: MockTurn, ctx: RenderContext): SseEvent[] {
  const events: SseEvent[] = [];
  for (const thought of chunksOf(turn.reasoning?.text)) events.push(sse(envelope(turn, ctx, [{ text: thought, thought: true }], false)));
  for (const text of texts(turn)) events.push(sse(envelope(turn, ctx, [{ text }], false)));
  const calls = callParts(turn);
  if (calls.length > 0) events.push(sse(envelope(turn, ctx, calls, false)));
  // the stream's signature comes last, on an empty text part beside the finish reason
  const signature = textSignature(turn);
  events.push(sse(envelope(turn, ctx, signature !== undefined ? [{ text: "", thoughtSignature: signature }] : [], true)));
  return events;
}

const STATUS_NAME: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

/** Google's error body (https://cloud.google.com/apis/design/errors). */
export function googleErrorBody(status: number, message?: string): unknown {
  const name = STATUS_NAME[status] ?? (status >= 500 ? "INTERNAL" : "INVALID_ARGUMENT");
  return { error: { code: status, message: message ?? `mock ${name}`, status: name } };
}

/** An error in place of the next stream event, as Google sends one mid-stream. */
export function renderGeminiStreamError(message: string, type?: string): SseEvent[] {
  const status = type === "rate_limit_error" ? 429 : 503;
  return [sse(googleErrorBody(status, message))];
}
