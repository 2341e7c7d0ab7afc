/** One Anthropic SSE event as the real API writes it. */
export const wire = (payload: { type: string } & Record<string, unknown>): string => `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;

export const messageStart = wire({
  type: "message_start",
  message: {
    id: "msg_01XY",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: {
      input_tokens: 25,
      output_tokens: 1,
      cache_creation_input_tokens: 100,
      cache_read_input_tokens: 400,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 0 },
    },
  },
});

export function toolBlock(index: number, id: string, name: string, chunks: string[]): string {
  return (
    wire({ type: "content_block_start", index, content_block: { type: "tool_use", id, name, input: {} } }) +
    wire({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: "" } }) +
    chunks.map((c) => wire({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: c } })).join("") +
    wire({ type: "content_block_stop", index })
  );
}

/** What Anthropic streams for thinking, text and two tool calls (with its ping and empty first json delta). */
export const realistic =
  messageStart +
  wire({ type: "ping" }) +
  wire({ type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } }) +
  wire({ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "The user wants " } }) +
  wire({ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "two lookups." } }) +
  wire({ type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3h" } }) +
  wire({ type: "content_block_stop", index: 0 }) +
  wire({ type: "content_block_start", index: 1, content_block: { type: "text", text: "" } }) +
  wire({ type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Checking " } }) +
  wire({ type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "both." } }) +
  wire({ type: "content_block_stop", index: 1 }) +
  toolBlock(2, "toolu_01A", "get_weather", ['{"ci', 'ty": "Pa', "ris", '", "unit', '": "c"}']) +
  toolBlock(3, "toolu_01B", "get_time", ["{", '"tz"', ":", ' "Europe/', 'Paris"', "}"]) +
  wire({
    type: "message_delta",
    delta: { stop_reason: "tool_use", stop_sequence: null },
    usage: { output_tokens: 187, output_tokens_details: { thinking_tokens: 40 } },
  }) +
  wire({ type: "message_stop" });
