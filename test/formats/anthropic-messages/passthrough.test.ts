import { describe, expect, test } from "bun:test";
import { anthropicInbound, anthropicUpstream } from "../../../src/formats/anthropic-messages";
import { decodeResult } from "../../../src/formats/anthropic-messages/decode-result";
import { rewriteMessagesResult } from "../../../src/formats/anthropic-messages/passthrough";
import { CTX, drive, passthroughWriter, SETTLEMENT, wholeStream } from "../passthrough-drive";

const UPSTREAM_USAGE = { input_tokens: 5, output_tokens: 4, cache_read_input_tokens: 3, cache_creation_input_tokens: 2, service_tier: "standard" };
/** The usage the gateway writes for UPSTREAM_USAGE: normalised as encode-result does, with what it charged. */
const SETTLED_USAGE = {
  input_tokens: 5,
  output_tokens: 4,
  cache_creation_input_tokens: 2,
  cache_read_input_tokens: 3,
  cache_creation: { ephemeral_5m_input_tokens: 2, ephemeral_1h_input_tokens: 0 },
  server_tool_use: null,
  service_tier: "standard",
  inference_geo: null,
  output_tokens_details: null,
  cost: 0.000123,
  is_byok: false,
  cost_details: { upstream_inference_prompt_cost: 0.00002, upstream_inference_completions_cost: 0.000103, upstream_inference_cost: null },
};

describe("messages passthrough: JSON", () => {
  test("the upstream's message, blocks the IR cannot carry included, under the gateway's id, model and charged usage", () => {
    const content = [
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
      { type: "text", text: "Hi", citations: [{ type: "web_search_result_location", url: "u" }] },
    ];
    const raw = {
      id: "msg_up",
      type: "message",
      role: "assistant",
      model: "claude",
      content,
      stop_reason: "end_turn",
      stop_sequence: null,
      container: { id: "c" },
      usage: UPSTREAM_USAGE,
      x_top: 1,
    };
    expect(rewriteMessagesResult(raw, decodeResult(raw), CTX, SETTLEMENT)).toEqual({
      ...raw,
      id: "gen-1-abc",
      model: "t/model",
      usage: SETTLED_USAGE,
      service_metadata: SETTLEMENT.serviceMetadata,
    });
  });
});

const ev = (data: Record<string, unknown>, named = true) =>
  named ? { event: data.type as string, data: JSON.stringify(data) } : { data: JSON.stringify(data) };
const START = ev({
  type: "message_start",
  message: {
    id: "msg_up",
    type: "message",
    role: "assistant",
    model: "claude",
    content: [],
    stop_reason: null,
    usage: { ...UPSTREAM_USAGE, output_tokens: 1 },
    x_msg: 1,
  },
});
const BLOCK = [
  ev({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
  ev({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } }),
  ev({ type: "content_block_delta", index: 0, delta: { type: "citations_delta", citation: { url: "u" } } }),
  ev({ type: "content_block_stop", index: 0 }),
];
const DELTA = ev({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 4 }, x_delta: 1 });
const STOP = ev({ type: "message_stop", x_stop: 1 });
const frame = (e: { event?: string; data: string }) => `event: ${e.event}\ndata: ${e.data}\n\n`;

describe("messages passthrough: stream", () => {
  test("message_start gets the gateway's id and model and keeps the upstream's usage; ping and block events go out byte for byte", () => {
    const { written } = drive(anthropicUpstream, passthroughWriter(anthropicInbound), [START, ev({ type: "ping" }), ...BLOCK]);
    const start = {
      type: "message_start",
      message: {
        id: "gen-1-abc",
        type: "message",
        role: "assistant",
        model: "t/model",
        content: [],
        stop_reason: null,
        usage: { ...UPSTREAM_USAGE, output_tokens: 1 },
        x_msg: 1,
      },
    };
    expect(written).toBe(`event: message_start\ndata: ${JSON.stringify(start)}\n\n${[ev({ type: "ping" }), ...BLOCK].map(frame).join("")}`);
  });

  test("an event without an event: line is named by its type (Anthropic clients drop unnamed events)", () => {
    const { written } = drive(anthropicUpstream, passthroughWriter(anthropicInbound), [START, ev({ type: "ping" }, false)]);
    expect(written.endsWith(`event: ping\ndata: {"type":"ping"}\n\n`)).toBe(true);
  });

  test("message_delta and message_stop are held back, then written with the charged usage and the metadata", () => {
    const writer = passthroughWriter(anthropicInbound);
    const { written, end } = drive(anthropicUpstream, writer, [START, ...BLOCK, DELTA, STOP]);
    expect(written).not.toContain("message_delta");
    expect(end).toMatchObject({ type: "finish", finishReason: "stop", usage: { inputTokens: 10, outputTokens: 4 } });
    const last = writer.finish(end as any, SETTLEMENT);
    expect(last).toBe(
      `event: message_delta\ndata: ${JSON.stringify({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: SETTLED_USAGE, x_delta: 1 })}\n\n` +
        `event: message_stop\ndata: ${JSON.stringify({ type: "message_stop", x_stop: 1, service_metadata: SETTLEMENT.serviceMetadata })}\n\n`,
    );
  });

  test("an upstream that closes after message_delta without message_stop: finish adds it", () => {
    const sse = wholeStream(anthropicUpstream, passthroughWriter(anthropicInbound), [START, ...BLOCK, DELTA]);
    expect(sse.endsWith(`event: message_stop\ndata: ${JSON.stringify({ type: "message_stop", service_metadata: SETTLEMENT.serviceMetadata })}\n\n`)).toBe(true);
  });

  test("an upstream error event ends the stream as the encoder writes it", () => {
    const events = [START, ...BLOCK.slice(0, 2), ev({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })];
    const sse = wholeStream(anthropicUpstream, passthroughWriter(anthropicInbound), events);
    expect(sse.endsWith(`event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })}\n\n`)).toBe(true);
    expect(sse.match(/event: error/g)).toHaveLength(1);
  });
});
