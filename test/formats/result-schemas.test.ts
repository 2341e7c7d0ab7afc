import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "elysia";
import fc from "fast-check";
import { anthropicInbound, MessagesResultSchema } from "../../src/formats/anthropic-messages";
import { ChatResultSchema, openaiChatInbound } from "../../src/formats/openai-chat";
import { openaiResponsesInbound, ResponsesResultSchema } from "../../src/formats/openai-responses";
import type { EncodeContext, InboundCodec } from "../../src/ir/codec";
import { NO_CHARGE, type Settlement } from "../../src/ir/settlement";
import type { IRAssistantPart, IRFinishReason, IRRequest, IRResult } from "../../src/ir/types";
import { blocks, irStream } from "./ir-arbitrary";

/**
 * Each encoder's result against the schema the OpenAPI document publishes for it. The static types
 * already tie them; this checks what types cannot (integers, the service metadata the gateway builds).
 */

const FORMATS: Array<{ name: string; inbound: InboundCodec<never, unknown>; schema: TSchema }> = [
  { name: "openai-chat", inbound: openaiChatInbound, schema: ChatResultSchema },
  { name: "openai-responses", inbound: openaiResponsesInbound, schema: ResponsesResultSchema },
  { name: "anthropic-messages", inbound: anthropicInbound, schema: MessagesResultSchema },
];

const request: IRRequest = {
  messages: [],
  stream: false,
  sentParameters: [],
  instructions: "Be brief.",
  maxOutputTokens: 100,
  tools: [{ type: "function", name: "lookup", parameters: { type: "object" } }],
  toolChoice: { type: "tool", name: "lookup" },
  responseFormat: { type: "json_schema", name: "answer", schema: { type: "object" }, strict: true },
  reasoning: { effort: "low" },
  metadata: { team: "a" },
};

const ctx: EncodeContext = { generationId: "gen-schema", model: "acme/alpha", created: 1_700_000_000, request };

/** What the gateway builds (gateway/metadata.ts) when the client asks for service metadata. */
const withMetadata: Settlement = {
  cost: 0.0042,
  isByok: true,
  costDetails: { upstreamInferencePromptCost: 0.003, upstreamInferenceCompletionsCost: 0.0012, upstreamInferenceCost: 0.0042 },
  serviceMetadata: {
    requested: "acme/alpha",
    model: "acme/alpha",
    provider: "acme-cloud",
    generation_id: "gen-schema",
    is_byok: true,
    attempts: [{ model: "acme/alpha", provider: "acme-cloud", status: 200, latency: 812 }],
  },
};

/** Parts the stream arbitrary does not make: redacted thinking and OpenAI's summarised, encrypted reasoning. */
const otherParts: IRAssistantPart[] = [
  { type: "reasoning", text: "", redacted: true, encrypted: "REDACTED", origin: "anthropic-messages" },
  { type: "reasoning", text: "Plan.", summary: true, id: "rs_1", encrypted: "ENC", origin: "openai-responses" },
];

const schemaErrors = (schema: TSchema, body: unknown): string[] => [...Value.Errors(schema, body)].map((e) => `${e.path}: ${e.message}`);

describe.each(FORMATS)("$name result", ({ inbound, schema }) => {
  test("property: every encoded result matches the published schema", () => {
    fc.assert(
      fc.property(
        blocks,
        fc.boolean(),
        fc.constantFrom<IRFinishReason>("stop", "length", "tool_calls", "content_filter", "refusal", "error"),
        fc.constantFrom(NO_CHARGE, withMetadata),
        fc.option(fc.nat({ max: 5 }), { nil: undefined }),
        (specs, withOthers, finishReason, settlement, webSearchRequests) => {
          const content = [...irStream(specs, { type: "error", status: 502, message: "" }).content, ...(withOthers ? otherParts : [])];
          const usage = {
            inputTokens: 120,
            outputTokens: 40,
            cachedTokens: 20,
            cacheWriteTokens: 5,
            reasoningTokens: 10,
            ...(webSearchRequests !== undefined ? { webSearchRequests } : {}),
          };
          const result: IRResult = { id: "up", model: "m", content, finishReason, nativeFinishReason: "native", usage };
          expect(schemaErrors(schema, inbound.encodeResult(result, ctx, settlement))).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });
});
