// One reasoning shape per request: `reasoning.summary` set → summary_text parts and
// reasoning_summary_* events; unset → reasoning_text parts and reasoning_text events. Whatever
// kind of upstream made the reasoning, streamed or not.
import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { openaiResponsesInbound } from "../../../src/formats/openai-responses";
import type { EncodeContext } from "../../../src/ir/codec";
import type { IRStreamPart, ReasoningOrigin } from "../../../src/ir/types";
import { sseJsonEvents } from "../../support/sse";
import { encodeParts } from "../encode-parts";
import { ctx, ctxWithoutSummary, NOW, settlement, usage } from "./fixtures";

beforeAll(() => setSystemTime(NOW));
afterAll(() => setSystemTime());

const ORIGINS: ReasoningOrigin[] = ["openai-responses", "openai-chat", "anthropic-messages"];
const SHAPES = [
  { label: "summary requested", context: ctx, shape: "summary_text" },
  { label: "no summary requested", context: ctxWithoutSummary, shape: "reasoning_text" },
] as const;

const streamParts = (origin: ReasoningOrigin, summary: boolean): IRStreamPart[] => [
  { type: "block-start", index: 0, block: { type: "reasoning", origin, ...(origin === "openai-responses" ? { id: "rs_up" } : {}), summary } },
  { type: "reasoning-delta", index: 0, text: "Think" },
  { type: "reasoning-delta", index: 0, text: "ing." },
  { type: "block-end", index: 0 },
  { type: "block-start", index: 1, block: { type: "text" } },
  { type: "text-delta", index: 1, text: "Done." },
  { type: "block-end", index: 1 },
  { type: "finish", finishReason: "stop", usage },
];

function reasoningEvents(context: EncodeContext, origin: ReasoningOrigin, summary: boolean) {
  const events = sseJsonEvents(encodeParts(openaiResponsesInbound.createStreamEncoder(context), streamParts(origin, summary), settlement), "named").map(
    (e) => e.data,
  );
  return events
    .filter((e) => e.type.includes("reasoning") || (e.type.startsWith("response.content_part") && e.output_index === 0))
    .map(({ sequence_number: _s, item_id: _i, ...rest }) => rest);
}

describe("one reasoning shape per request", () => {
  for (const { label, context, shape } of SHAPES) {
    for (const origin of ORIGINS) {
      // the upstream's own flag must not matter: OpenAI summaries and raw thinking alike
      for (const upstreamSummary of [true, false]) {
        test(`${label}: ${origin} reasoning (upstream summary: ${upstreamSummary})`, () => {
          const result = openaiResponsesInbound.encodeResult(
            {
              id: "up",
              model: "m",
              content: [
                { type: "reasoning", text: "Thinking.", origin, summary: upstreamSummary, ...(origin === "openai-responses" ? { id: "rs_up" } : {}) },
                { type: "text", text: "Done." },
              ],
              finishReason: "stop",
              usage,
            },
            context,
            settlement,
          );
          const item = result.output[0]!;
          if (shape === "summary_text") {
            expect(item).toMatchObject({ type: "reasoning", summary: [{ type: "summary_text", text: "Thinking." }] });
            expect("content" in item).toBe(false);
          } else {
            expect(item).toMatchObject({ type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: "Thinking." }] });
          }

          const events = reasoningEvents(context, origin, upstreamSummary);
          const at = shape === "summary_text" ? { output_index: 0, summary_index: 0 } : { output_index: 0, content_index: 0 };
          const [added, delta, done, partDone] =
            shape === "summary_text"
              ? [
                  "response.reasoning_summary_part.added",
                  "response.reasoning_summary_text.delta",
                  "response.reasoning_summary_text.done",
                  "response.reasoning_summary_part.done",
                ]
              : ["response.content_part.added", "response.reasoning_text.delta", "response.reasoning_text.done", "response.content_part.done"];
          expect(events).toEqual([
            { type: added, ...at, part: { type: shape, text: "" } },
            { type: delta, ...at, delta: "Think" },
            { type: delta, ...at, delta: "ing." },
            { type: done, ...at, text: "Thinking." },
            { type: partDone, ...at, part: { type: shape, text: "Thinking." } },
          ]);
        });
      }
    }
  }
});
