// Property: for any upstream stream of the client's own format, passthrough shows the client the
// same text, reasoning, tool calls, finish and charged usage as translating it through the IR
// (decoder → encoder) did. The upstream streams are the mock upstream's renderings of random turns.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { anthropicInbound, anthropicUpstream } from "../../src/formats/anthropic-messages";
import { openaiChatInbound, openaiChatUpstream } from "../../src/formats/openai-chat";
import { openaiResponsesInbound, openaiResponsesUpstream } from "../../src/formats/openai-responses";
import { encoderWriter } from "../../src/gateway/encoder-writer";
import type { InboundCodec, UpstreamCodec } from "../../src/ir/codec";
import { renderAnthropicEvents } from "../support/mock-upstream/render-anthropic";
import { renderChatEvents } from "../support/mock-upstream/render-chat";
import { renderResponsesEvents } from "../support/mock-upstream/render-responses";
import type { MockTurn, RenderContext, SseEvent } from "../support/mock-upstream/types";
import { sseJson } from "../support/sse";
import { CTX, passthroughWriter, wholeStream } from "./passthrough-drive";

/** What a client reads off a stream, whatever the events looked like. */
type View = { text: string; reasoning: string; tools: Array<{ id: string; name: string; args: string }>; finish: unknown; usage: unknown };

function chatView(sse: string): View {
  const view: View = { text: "", reasoning: "", tools: [], finish: undefined, usage: undefined };
  for (const chunk of sseJson(sse)) {
    const choice = chunk.choices?.[0];
    view.text += choice?.delta?.content ?? "";
    view.reasoning += choice?.delta?.reasoning ?? "";
    for (const call of choice?.delta?.tool_calls ?? []) {
      const tool = (view.tools[call.index] ??= { id: "", name: "", args: "" });
      tool.id ||= call.id ?? "";
      tool.name ||= call.function?.name ?? "";
      tool.args += call.function?.arguments ?? "";
    }
    if (choice?.finish_reason) view.finish = [choice.finish_reason, choice.native_finish_reason];
    if (chunk.usage) view.usage = chunk.usage;
  }
  return view;
}

function responsesView(sse: string): View {
  const view: View = { text: "", reasoning: "", tools: [], finish: undefined, usage: undefined };
  for (const event of sseJson(sse)) {
    if (event.type === "response.output_text.delta") view.text += event.delta;
    if (event.type === "response.reasoning_summary_text.delta" || event.type === "response.reasoning_text.delta") view.reasoning += event.delta;
    if (event.type === "response.completed" || event.type === "response.incomplete") {
      const { response } = event;
      view.tools = response.output.filter((i: any) => i.type === "function_call").map((i: any) => ({ id: i.call_id, name: i.name, args: i.arguments }));
      view.finish = [response.status, response.incomplete_details, response.output_text];
      view.usage = response.usage;
    }
  }
  return view;
}

function messagesView(sse: string): View {
  const view: View = { text: "", reasoning: "", tools: [], finish: undefined, usage: undefined };
  const tools = new Map<number, View["tools"][number]>();
  for (const event of sseJson(sse)) {
    if (event.type === "content_block_start" && event.content_block.type === "tool_use")
      tools.set(event.index, { id: event.content_block.id, name: event.content_block.name, args: "" });
    if (event.type === "content_block_delta") {
      view.text += event.delta.text ?? "";
      view.reasoning += event.delta.thinking ?? "";
      if (event.delta.partial_json !== undefined) tools.get(event.index)!.args += event.delta.partial_json;
    }
    if (event.type === "message_delta") {
      view.finish = event.delta.stop_reason;
      view.usage = event.usage;
    }
  }
  view.tools = [...tools.values()];
  return view;
}

/** Splits at the given offsets (by code point, as upstreams never split a surrogate pair). */
function splitAt(text: string, cuts: number[]): string[] {
  const points = Array.from(text);
  const bounds = [...new Set(cuts.map((c) => c % (points.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const b of [...bounds, points.length]) {
    if (b > from) pieces.push(points.slice(from, b).join(""));
    from = Math.max(from, b);
  }
  return pieces;
}

const split = (text: fc.Arbitrary<string>) => fc.tuple(text, fc.array(fc.nat(), { maxLength: 6 })).map(([t, cuts]) => splitAt(t, cuts));
const text = fc.string({ unit: "binary", maxLength: 24 });

const turn: fc.Arbitrary<MockTurn> = fc.record(
  {
    text: split(text),
    reasoning: fc.record({
      text: split(fc.string({ unit: "binary", minLength: 1, maxLength: 16 })),
      summary: fc.boolean(),
      chatField: fc.constantFrom("reasoning_content" as const, "reasoning" as const),
    }),
    toolCalls: fc.array(
      fc.record({ id: fc.stringMatching(/^call_[a-z0-9]{1,8}$/), name: fc.stringMatching(/^[a-z_]{1,10}$/), arguments: split(fc.json({ maxDepth: 1 })) }),
      { maxLength: 2 },
    ),
    finish: fc.constantFrom("stop" as const, "length" as const),
    usage: fc.record({ input: fc.nat(5000), output: fc.nat(5000), cached: fc.nat(100), reasoning: fc.nat(100) }),
    omitUsage: fc.boolean(),
  },
  { requiredKeys: ["usage", "finish"] },
);

type Case = {
  name: string;
  inbound: InboundCodec<any>;
  upstream: UpstreamCodec;
  render: (t: MockTurn, c: RenderContext) => SseEvent[];
  view: (sse: string) => View;
};
const CASES: Case[] = [
  { name: "chat", inbound: openaiChatInbound, upstream: openaiChatUpstream, render: renderChatEvents, view: chatView },
  { name: "responses", inbound: openaiResponsesInbound, upstream: openaiResponsesUpstream, render: renderResponsesEvents, view: responsesView },
  { name: "messages", inbound: anthropicInbound, upstream: anthropicUpstream, render: renderAnthropicEvents, view: messagesView },
];

describe("passthrough shows the client what the encoder path did", () => {
  for (const c of CASES) {
    test(c.name, () => {
      fc.assert(
        fc.property(turn, fc.boolean(), (t, includeUsage) => {
          const upstreamEvents = c.render(t, { body: { stream: true, stream_options: { include_usage: includeUsage } }, model: "up", created: 1, seq: 1 });
          const encoded = c.view(wholeStream(c.upstream, encoderWriter(c.inbound.createStreamEncoder(CTX)), upstreamEvents));
          const passed = c.view(wholeStream(c.upstream, passthroughWriter(c.inbound), upstreamEvents));
          expect(passed).toEqual(encoded);
          expect(encoded.usage).toBeDefined();
        }),
        { numRuns: 150 },
      );
    });
  }
});
