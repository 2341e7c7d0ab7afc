// A kept answer and its stream: parts folded by StreamedAnswer as a stream goes by, replayed by
// replayParts for a streamed hit, always in the IR's stream grammar and back to the same parts.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { type CachedAnswer, StreamedAnswer } from "../../../../src/gateway/response-cache/cached-answer";
import { replayParts } from "../../../../src/gateway/response-cache/replay";
import type { IRAssistantPart } from "../../../../src/ir/types";
import { blocks, irStream } from "../../../formats/ir-arbitrary";
import { grammarViolations } from "../../../formats/stream-grammar";

const USAGE = { inputTokens: 10, outputTokens: 4, cachedTokens: 2, cacheWriteTokens: 0, reasoningTokens: 1 };

const answerOf = (content: IRAssistantPart[]): CachedAnswer => ({
  v: 1,
  model: "t/chat",
  provider: { slug: "up", name: "Up" },
  endpoint: "up/model",
  result: { id: "up-1", content, finishReason: "stop", usage: USAGE },
  usageEstimated: false,
});

test("a stream folded, then replayed: the grammar holds and the parts come back equal (empty text blocks left out)", () => {
  fc.assert(
    fc.property(blocks, (specs) => {
      const { parts, content } = irStream(specs, { type: "finish", finishReason: "stop", usage: USAGE });
      const folded = new StreamedAnswer();
      for (const part of parts) folded.observe(part);
      const kept = content.filter((p) => !(p.type === "text" && p.text === "") && !(p.type === "refusal" && p.refusal === ""));
      expect(folded.content()).toEqual(kept);
      const replay = replayParts(answerOf(folded.content()));
      expect(grammarViolations([...replay.parts, replay.finish])).toEqual([]);
      const again = new StreamedAnswer();
      for (const part of replay.parts) again.observe(part);
      expect(again.content()).toEqual(kept);
    }),
  );
});

test("reasoning of every kind survives: summary, id, redacted bytes, encrypted payload, signature", () => {
  const content: IRAssistantPart[] = [
    { type: "reasoning", text: "Summary.", summary: true, id: "rs_1", encrypted: "enc-1", origin: "openai-responses" },
    { type: "reasoning", text: "", redacted: true, encrypted: "redacted-bytes", origin: "anthropic-messages" },
    { type: "reasoning", text: "Thought.", signature: "sig", origin: "anthropic-messages" },
    { type: "text", text: "Answer." },
  ];
  const { parts, finish } = replayParts(answerOf(content));
  expect(parts[0]).toEqual({ type: "start", id: "up-1", model: "t/chat", usage: USAGE });
  expect(finish).toEqual({ type: "finish", finishReason: "stop", usage: USAGE });
  expect(grammarViolations([...parts, finish])).toEqual([]);
  const folded = new StreamedAnswer();
  for (const part of parts) folded.observe(part);
  expect(folded.content()).toEqual(content);
});
