import fc from "fast-check";
import type { IRAssistantPart, IRFinishReason, IRStreamPart, IRUsage } from "../../src/ir/types";

/**
 * Valid IR streams for property tests: text, refusals, reasoning with a signature, and runs of
 * parallel tool calls, each streamed in several deltas, then a finish or an error. The arbitraries
 * make plain data so that a counterexample reads as what was streamed.
 */

export type BlockSpec =
  | { kind: "text" | "refusal"; texts: string[] }
  /** Anthropic thinking: its signature arrives after the text, as Anthropic streams it */
  | { kind: "reasoning"; texts: string[]; signature: string }
  | { kind: "tool_call"; name: string; args: string[] };

const pieces = fc.array(fc.string({ minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 4 });

const plain = fc.record({ kind: fc.constantFrom<"text" | "refusal">("text", "refusal"), texts: pieces });
const reasoning = fc.record({ kind: fc.constant("reasoning" as const), texts: pieces, signature: fc.base64String({ minLength: 4, maxLength: 24 }) });
const toolCall = fc.record({
  kind: fc.constant("tool_call" as const),
  name: fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/),
  args: fc.array(fc.string({ maxLength: 8 }), { minLength: 2, maxLength: 5 }),
});

/** Runs of blocks; a run of tool calls is a parallel call. */
export const blocks: fc.Arbitrary<BlockSpec[]> = fc
  .array(
    fc.oneof(
      plain.map((b) => [b]),
      reasoning.map((b) => [b]),
      fc.array(toolCall, { minLength: 1, maxLength: 3 }),
    ),
    { maxLength: 5 },
  )
  .map((runs) => runs.flat());

const usage: fc.Arbitrary<IRUsage> = fc.record({
  inputTokens: fc.nat({ max: 100_000 }),
  outputTokens: fc.nat({ max: 100_000 }),
  cachedTokens: fc.constant(0),
  cacheWriteTokens: fc.constant(0),
  reasoningTokens: fc.constant(0),
});

export type StreamEnd = Extract<IRStreamPart, { type: "finish" | "error" }>;

export const streamEnd: fc.Arbitrary<StreamEnd> = fc.oneof(
  fc.record({ type: fc.constant("finish" as const), finishReason: fc.constantFrom<IRFinishReason>("stop", "length", "tool_calls"), usage }),
  fc.record({ type: fc.constant("error" as const), status: fc.constantFrom(429, 500, 502, 529), message: fc.string({ minLength: 1, maxLength: 20 }) }),
);

/** One block at stream index `index`: its parts, block-end included, and the whole part it stands for. The call id comes from the index, so ids are unique. */
function streamBlock(spec: BlockSpec, index: number): { parts: IRStreamPart[]; whole: IRAssistantPart } {
  const open = (block: Extract<IRStreamPart, { type: "block-start" }>["block"]): IRStreamPart => ({ type: "block-start", index, block });
  const end: IRStreamPart = { type: "block-end", index };
  switch (spec.kind) {
    case "text":
      return {
        parts: [open({ type: "text" }), ...spec.texts.map((text): IRStreamPart => ({ type: "text-delta", index, text })), end],
        whole: { type: "text", text: spec.texts.join("") },
      };
    case "refusal":
      return {
        parts: [open({ type: "refusal" }), ...spec.texts.map((text): IRStreamPart => ({ type: "refusal-delta", index, text })), end],
        whole: { type: "refusal", refusal: spec.texts.join("") },
      };
    case "reasoning":
      return {
        parts: [
          open({ type: "reasoning", origin: "anthropic-messages" }),
          ...spec.texts.map((text): IRStreamPart => ({ type: "reasoning-delta", index, text })),
          { type: "reasoning-signature", index, signature: spec.signature },
          end,
        ],
        whole: { type: "reasoning", text: spec.texts.join(""), signature: spec.signature, origin: "anthropic-messages" },
      };
    case "tool_call": {
      const id = `call_${index}`;
      return {
        parts: [open({ type: "tool_call", id, name: spec.name }), ...spec.args.map((delta): IRStreamPart => ({ type: "tool-args-delta", index, delta })), end],
        whole: { type: "tool_call", id, name: spec.name, arguments: spec.args.join("") },
      };
    }
  }
}

/** The whole stream of some blocks, and the parts they stand for. */
export function irStream(specs: BlockSpec[], end: StreamEnd): { parts: IRStreamPart[]; content: IRAssistantPart[] } {
  const streamed = specs.map(streamBlock);
  const parts: IRStreamPart[] = [{ type: "start", id: "up-1", model: "upstream-model" }, ...streamed.flatMap((b) => b.parts), end];
  return { parts, content: streamed.map((b) => b.whole) };
}
