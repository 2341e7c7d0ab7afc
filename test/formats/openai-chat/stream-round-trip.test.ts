import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { openaiChatInbound, openaiChatUpstream } from "../../../src/formats/openai-chat";
import type { IRAssistantPart, IRFinishReason, IRStreamPart, IRUsage } from "../../../src/ir/types";
import { parseSse } from "../../support/sse";
import { decodeAll } from "../decode-events";
import { encodeParts } from "../encode-parts";
import { collect, mergeNeighbours } from "../stream-collect";
import { expectValidStream } from "../stream-grammar";
import { ctx } from "./fixtures";

/** One generated block: the parts that stream it and the whole part it stands for. */
type Block = { parts: (index: number) => IRStreamPart[]; whole: IRAssistantPart };

const pieces = fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 4 });

const textBlock = pieces.map(
  (texts): Block => ({
    parts: (index) => [{ type: "block-start", index, block: { type: "text" } }, ...texts.map((text) => ({ type: "text-delta" as const, index, text }))],
    whole: { type: "text", text: texts.join("") },
  }),
);

const refusalBlock = pieces.map(
  (texts): Block => ({
    parts: (index) => [{ type: "block-start", index, block: { type: "refusal" } }, ...texts.map((text) => ({ type: "refusal-delta" as const, index, text }))],
    whole: { type: "refusal", refusal: texts.join("") },
  }),
);

const toolBlock = fc.record({ name: fc.string(), args: fc.array(fc.string(), { maxLength: 5 }) }).map(
  ({ name, args }) =>
    (id: string): Block => ({
      parts: (index) => [
        { type: "block-start", index, block: { type: "tool_call", id, name } },
        ...args.map((delta) => ({ type: "tool-args-delta" as const, index, delta })),
      ],
      whole: { type: "tool_call", id, name, arguments: args.join("") },
    }),
);

const anthropicThinking = fc
  .record({ texts: pieces, signature: fc.option(fc.string({ minLength: 1 }), { nil: undefined }) })
  .map(({ texts, signature }): Block => {
    const whole: IRAssistantPart = { type: "reasoning", text: texts.join(""), origin: "anthropic-messages" };
    if (signature !== undefined) whole.signature = signature;
    return {
      parts: (index) => [
        { type: "block-start", index, block: { type: "reasoning", origin: "anthropic-messages" } },
        ...texts.map((text) => ({ type: "reasoning-delta" as const, index, text })),
        ...(signature !== undefined ? [{ type: "reasoning-signature" as const, index, signature }] : []),
      ],
      whole,
    };
  });

const redactedThinking = fc.string().map(
  (data): Block => ({
    parts: (index) => [{ type: "block-start", index, block: { type: "reasoning", origin: "anthropic-messages", redacted: true, encrypted: data } }],
    whole: { type: "reasoning", text: "", origin: "anthropic-messages", redacted: true, encrypted: data },
  }),
);

const plainReasoning = pieces.map(
  (texts): Block => ({
    parts: (index) => [
      { type: "block-start", index, block: { type: "reasoning", origin: "unknown" } },
      ...texts.map((text) => ({ type: "reasoning-delta" as const, index, text })),
    ],
    whole: { type: "reasoning", text: texts.join(""), origin: "unknown" },
  }),
);

// The payload may come with block-start (known up front) or as a part after the text.
const responsesReasoning = fc
  .record({
    texts: fc.array(fc.string({ minLength: 1 }), { maxLength: 3 }),
    encrypted: fc.string({ minLength: 1 }),
    summary: fc.boolean(),
    atStart: fc.boolean(),
  })
  .map(({ texts, encrypted, summary, atStart }) => (id: string): Block => {
    const isSummary = summary && texts.length > 0;
    const flags = isSummary ? { summary: true } : {};
    const block = { type: "reasoning" as const, origin: "openai-responses" as const, id, ...flags, ...(atStart ? { encrypted } : {}) };
    return {
      parts: (index) => [
        { type: "block-start", index, block },
        ...texts.map((text) => ({ type: "reasoning-delta" as const, index, text })),
        ...(atStart ? [] : [{ type: "reasoning-encrypted" as const, index, data: encrypted }]),
      ],
      whole: { type: "reasoning", text: texts.join(""), origin: "openai-responses", id, ...flags, encrypted },
    };
  });

const block = fc.oneof(
  textBlock.map((b) => () => b),
  refusalBlock.map((b) => () => b),
  toolBlock,
  anthropicThinking.map((b) => () => b),
  redactedThinking.map((b) => () => b),
  plainReasoning.map((b) => () => b),
  responsesReasoning,
);

const usage = fc.record({
  inputTokens: fc.nat(),
  outputTokens: fc.nat(),
  cachedTokens: fc.nat(),
  cacheWriteTokens: fc.nat(),
  reasoningTokens: fc.nat(),
});

const finishReason = fc.constantFrom<IRFinishReason>("stop", "length", "tool_calls", "content_filter");

describe("encode-stream then decode-stream", () => {
  test("property: content, finish reason and usage survive", () => {
    fc.assert(
      fc.property(fc.array(block, { maxLength: 8 }), finishReason, usage, (makers, reason, tokens: IRUsage) => {
        const blocks = makers.map((make, i) => make(`id_${i}`));
        const parts: IRStreamPart[] = [{ type: "start", id: "up", model: "m" }];
        blocks.forEach((b, index) => parts.push(...b.parts(index), { type: "block-end", index }));
        parts.push({ type: "finish", finishReason: reason, nativeFinishReason: "native", usage: tokens });

        const sse = encodeParts(openaiChatInbound.createStreamEncoder(ctx()), parts);
        const decoded = decodeAll(openaiChatUpstream.createStreamDecoder(), parseSse(sse, "data-only"));

        expectValidStream(decoded);
        expect(decoded[0]).toStrictEqual({ type: "start", id: "gen-123", model: "acme/alpha" });
        expect(collect(decoded)).toStrictEqual({
          content: mergeNeighbours(blocks.map((b) => b.whole)),
          finishReason: reason,
          usage: tokens,
        });
        expect(decoded.at(-1)).toMatchObject({ type: "finish", nativeFinishReason: "native" });
      }),
      { numRuns: 300 },
    );
  });
});
