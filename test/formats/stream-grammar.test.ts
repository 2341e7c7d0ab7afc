import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { anthropicInbound, anthropicUpstream } from "../../src/formats/anthropic-messages";
import { bedrockConverseUpstream } from "../../src/formats/bedrock-converse";
import { geminiUpstream } from "../../src/formats/gemini";
import { openaiChatInbound, openaiChatUpstream } from "../../src/formats/openai-chat";
import { openaiResponsesInbound, openaiResponsesUpstream } from "../../src/formats/openai-responses";
import { unpackForeignSignature } from "../../src/formats/reasoning-signature";
import type { EncodeContext, InboundCodec, SseEvent, UpstreamCodec } from "../../src/ir/codec";
import type { IRAssistantPart, IRStreamPart } from "../../src/ir/types";
import { upstreamApis } from "../../src/providers/apis";
import type { MockTurn } from "../support/mock-upstream";
import { renderBedrockEvents } from "../support/mock-upstream/render-bedrock";
import { parseSse } from "../support/sse";
import { realistic as anthropicStream } from "./anthropic-messages/upstream-events";
import { decodeAll } from "./decode-events";
import { encodeParts } from "./encode-parts";
import { geminiEvents, realistic as geminiStream } from "./gemini/upstream-events";
import { blocks, irStream, streamEnd } from "./ir-arbitrary";
import { azureStream } from "./openai-chat/azure-events";
import { realistic as chatStream } from "./openai-chat/upstream-events";
import { upstreamEvents } from "./openai-responses/upstream-events";
import { collect, mergeNeighbours } from "./stream-collect";
import { grammarViolations } from "./stream-grammar";

/**
 * Every format's stream encoder and decoder against the IR stream grammar: an encoder's SSE, read
 * back by the same format's decoder, is a valid IR stream that carries the same text, tool calls
 * and reasoning; and a decoder keeps the grammar however its upstream's stream breaks off.
 */

type Format = {
  name: string;
  inbound: InboundCodec<never, unknown>;
  upstream: UpstreamCodec;
  /** a whole stream as a real upstream of this format sends it */
  upstreamStream: SseEvent[];
  /** what an upstream of this format sends when it fails mid-stream */
  errorEvent: SseEvent;
  /** the content as this format can carry it */
  carried: (content: IRAssistantPart[]) => IRAssistantPart[];
};

const FORMATS: Format[] = [
  {
    name: "openai-chat",
    inbound: openaiChatInbound,
    upstream: openaiChatUpstream,
    upstreamStream: chatStream,
    errorEvent: { data: JSON.stringify({ id: "x", object: "chat.completion.chunk", choices: [], error: { code: 502, message: "upstream died" } }) },
    carried: (content) => content,
  },
  {
    // Azure OpenAI's deployments API: Chat bodies, with its own stream extras and error reading
    name: "azure-openai",
    inbound: openaiChatInbound,
    upstream: upstreamApis["azure-openai"].codec("gpt-4o"),
    upstreamStream: azureStream(),
    errorEvent: { data: JSON.stringify({ id: "x", object: "chat.completion.chunk", choices: [], error: { code: 502, message: "upstream died" } }) },
    carried: (content) => content,
  },
  {
    name: "openai-responses",
    inbound: openaiResponsesInbound,
    upstream: openaiResponsesUpstream,
    upstreamStream: upstreamEvents(['{"city":', '"Paris"}'], ['{"city":"Rome"}']),
    errorEvent: { event: "error", data: JSON.stringify({ type: "error", code: "server_error", message: "upstream died" }) },
    carried: (content) => content,
  },
  {
    name: "anthropic-messages",
    inbound: anthropicInbound,
    upstream: anthropicUpstream,
    upstreamStream: parseSse(anthropicStream),
    errorEvent: { event: "error", data: JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "upstream died" } }) },
    // Anthropic has no refusal block: a refusal is said in text
    carried: (content) => content.map((part) => (part.type === "refusal" ? { type: "text", text: part.refusal } : part)),
  },
];

const ctx: EncodeContext = {
  generationId: "gen-grammar",
  model: "acme/alpha",
  created: 1_700_000_000,
  request: { messages: [], stream: true, sentParameters: [] },
};

/** What must survive a trip through a format: text, tool ids, names and arguments, reasoning and its signature. */
function survivors(content: IRAssistantPart[]): unknown[] {
  return mergeNeighbours(content).map((part) => {
    switch (part.type) {
      case "text":
        return { text: part.text };
      case "refusal":
        return { refusal: part.refusal };
      case "tool_call":
        return { id: part.id, name: part.name, arguments: part.arguments };
      case "reasoning":
        // a format that cannot carry another's signature packs it into its own payload
        return { reasoning: part.text, signature: part.signature ?? unpackForeignSignature(part.encrypted ?? "")?.signature };
    }
  });
}

describe("the grammar checker", () => {
  const start: IRStreamPart = { type: "start", id: "u", model: "m" };
  const finish: IRStreamPart = {
    type: "finish",
    finishReason: "stop",
    usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  };
  const text = (index: number): IRStreamPart[] => [
    { type: "block-start", index, block: { type: "text" } },
    { type: "text-delta", index, text: "a" },
    { type: "block-end", index },
  ];

  test("accepts a valid stream, and one that is only an error", () => {
    expect(grammarViolations([start, ...text(0), { type: "usage", usage: {} }, ...text(1), finish])).toEqual([]);
    expect(grammarViolations([{ type: "error", status: 502, message: "x" }])).toEqual([]);
  });

  test("names each broken rule", () => {
    const cases: Array<[string, IRStreamPart[]]> = [
      ["no end", [start, ...text(0)]],
      ["start not first", [...text(0), start, finish]],
      ["delta before its block-start", [start, { type: "text-delta", index: 0, text: "a" }, finish]],
      ["two blocks open", [start, text(0)[0]!, ...text(1), finish]],
      ["index skipped", [start, ...text(1), finish]],
      ["index reused", [start, ...text(0), ...text(0), finish]],
      ["wrong block closed", [start, text(0)[0]!, { type: "block-end", index: 3 }, finish]],
      ["open at finish", [start, text(0)[0]!, finish]],
      ["open at error", [start, text(0)[0]!, { type: "error", status: 502, message: "x" }]],
      ["part after the end", [start, finish, ...text(0)]],
    ];
    for (const [what, parts] of cases) expect({ what, broken: grammarViolations(parts).length > 0 }).toEqual({ what, broken: true });
  });
});

describe.each(FORMATS)("$name", (format) => {
  test("property: the encoder's SSE decodes to a valid IR stream with the same content and ending", () => {
    fc.assert(
      fc.property(blocks, streamEnd, (made, end) => {
        const { parts, content } = irStream(made, end);
        const decoded = decodeAll(format.upstream.createStreamDecoder(), parseSse(encodeParts(format.inbound.createStreamEncoder(ctx), parts)));
        expect(grammarViolations(decoded)).toEqual([]);
        expect(survivors(collect(decoded).content)).toEqual(survivors(format.carried(content)));
        const last = decoded.at(-1);
        expect(last?.type).toBe(end.type);
        if (end.type === "error" && last?.type === "error") expect(last.message).toBe(end.message);
      }),
      { numRuns: 200 },
    );
  });

  test("a real upstream's stream decodes to a valid IR stream", () => {
    expect(grammarViolations(decodeAll(format.upstream.createStreamDecoder(), format.upstreamStream))).toEqual([]);
  });

  test("property: the decoder keeps the grammar when the upstream stream is cut, fails or sends garbage", () => {
    const fault = fc.constantFrom<"cut" | "error" | "garbage">("cut", "error", "garbage");
    // the real upstream's stream, or what this format's encoder writes for a generated one
    const source = fc.option(fc.tuple(blocks, streamEnd), { nil: undefined, freq: 4 });
    fc.assert(
      fc.property(source, fc.nat(), fault, (generated, at, kind) => {
        const events = generated ? parseSse(encodeParts(format.inbound.createStreamEncoder(ctx), irStream(...generated).parts)) : format.upstreamStream;
        const cut = events.slice(0, at % (events.length + 1));
        const input = kind === "cut" ? cut : [...cut, kind === "error" ? format.errorEvent : { data: "{not json" }];
        expect(grammarViolations(decodeAll(format.upstream.createStreamDecoder(), input))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe("bedrock-converse (an upstream only: the mock's ConverseStream renderer stands in for an encoder)", () => {
  const piece = fc.string({ minLength: 1, maxLength: 8 });
  const turn = fc.record({
    text: fc.option(fc.array(piece, { minLength: 1, maxLength: 4 }), { nil: undefined }),
    reasoning: fc.option(
      fc.record({
        text: fc.array(piece, { minLength: 1, maxLength: 3 }),
        signature: fc.option(fc.base64String({ minLength: 4, maxLength: 12 }), { nil: undefined }),
      }),
      { nil: undefined },
    ),
    toolCalls: fc.array(
      fc.record({
        id: fc.stringMatching(/^tooluse_[a-z0-9]{1,6}$/),
        name: fc.stringMatching(/^[a-z_]{1,8}$/),
        arguments: fc.array(piece, { minLength: 1, maxLength: 3 }),
      }),
      { maxLength: 3 },
    ),
  });
  const events = (t: MockTurn): SseEvent[] =>
    renderBedrockEvents(t, { body: {}, model: "m", created: 0, seq: 1 }).map((e) => ({ event: e.event, data: e.data }));

  test("property: a rendered stream decodes to a valid IR stream with the turn's text, reasoning, signature and tool calls", () => {
    fc.assert(
      fc.property(turn, (t) => {
        const decoded = decodeAll(bedrockConverseUpstream.createStreamDecoder(), events(t));
        expect(grammarViolations(decoded)).toEqual([]);
        const content = collect(decoded).content;
        const expected: IRAssistantPart[] = [];
        if (t.reasoning)
          expected.push({
            type: "reasoning",
            text: t.reasoning.text.join(""),
            origin: "bedrock",
            ...(t.reasoning.signature ? { signature: t.reasoning.signature } : {}),
          });
        if (t.text) expected.push({ type: "text", text: t.text.join("") });
        for (const call of t.toolCalls) expected.push({ type: "tool_call", id: call.id, name: call.name, arguments: call.arguments.join("") });
        expect(survivors(content)).toEqual(survivors(expected));
        expect(decoded.at(-1)?.type).toBe("finish");
      }),
      { numRuns: 200 },
    );
  });

  test("property: the decoder keeps the grammar when the stream is cut, ends in an exception frame or sends garbage", () => {
    const fault = fc.constantFrom<"cut" | "exception" | "garbage">("cut", "exception", "garbage");
    fc.assert(
      fc.property(turn, fc.nat(), fault, (t, at, kind) => {
        const all = events(t);
        const cut = all.slice(0, at % (all.length + 1));
        const tail: SseEvent[] =
          kind === "cut"
            ? []
            : kind === "exception"
              ? [{ event: "exception:modelStreamErrorException", data: '{"message":"died"}' }]
              : [{ event: "contentBlockDelta", data: "{not json" }];
        expect(grammarViolations(decodeAll(bedrockConverseUpstream.createStreamDecoder(), [...cut, ...tail]))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * Gemini is spoken to upstreams only: its stream comes from a test-side writer of Gemini events
 * (gemini/upstream-events.ts). Arguments travel as objects and signatures as the next part's, so
 * what must survive is the text, the reasoning text, each call's id and name, and the signatures.
 */
describe("gemini", () => {
  const kept = (content: IRAssistantPart[]) => ({
    text: content.flatMap((p) => (p.type === "text" ? [p.text] : p.type === "refusal" ? [p.refusal] : [])).join(""),
    reasoning: content.flatMap((p) => (p.type === "reasoning" ? [p.text] : [])).join(""),
    calls: content.flatMap((p) => (p.type === "tool_call" ? [{ id: p.id, name: p.name }] : [])),
    signatures: content.flatMap((p) => (p.type === "reasoning" ? [p.encrypted ?? p.signature ?? ""] : [])).filter((s) => s !== ""),
  });
  const errorEvent: SseEvent = { data: JSON.stringify({ error: { code: 503, message: "upstream died", status: "UNAVAILABLE" } }) };

  test("property: a Gemini stream of any content decodes to a valid IR stream with the same content and ending", () => {
    fc.assert(
      fc.property(blocks, streamEnd, (made, end) => {
        const { parts, content } = irStream(made, end);
        const decoded = decodeAll(geminiUpstream.createStreamDecoder(), geminiEvents(parts));
        expect(grammarViolations(decoded)).toEqual([]);
        expect(kept(collect(decoded).content)).toEqual(kept(content));
        expect(decoded.at(-1)?.type).toBe(end.type);
      }),
      { numRuns: 200 },
    );
  });

  test("a real upstream's stream decodes to a valid IR stream", () => {
    expect(grammarViolations(decodeAll(geminiUpstream.createStreamDecoder(), geminiStream))).toEqual([]);
  });

  test("property: the decoder keeps the grammar when the upstream stream is cut, fails or sends garbage", () => {
    const fault = fc.constantFrom<"cut" | "error" | "garbage">("cut", "error", "garbage");
    const source = fc.option(fc.tuple(blocks, streamEnd), { nil: undefined, freq: 4 });
    fc.assert(
      fc.property(source, fc.nat(), fault, (generated, at, kind) => {
        const events = generated ? geminiEvents(irStream(...generated).parts) : geminiStream;
        const cut = events.slice(0, at % (events.length + 1));
        const input = kind === "cut" ? cut : [...cut, kind === "error" ? errorEvent : { data: "{not json" }];
        expect(grammarViolations(decodeAll(geminiUpstream.createStreamDecoder(), input))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
