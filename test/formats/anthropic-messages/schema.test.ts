import { describe, expect, test } from "bun:test";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { MessagesRequestSchema } from "../../../src/formats/anthropic-messages";

const check = TypeCompiler.Compile(MessagesRequestSchema);

describe("MessagesRequestSchema", () => {
  test("accepts known blocks, unknown block kinds and server tools", () => {
    expect(
      check.Check({
        model: "anthropic/claude",
        max_tokens: 100,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "hi" },
              { type: "search_result", source: "s", title: "t", content: [] },
            ],
          },
          {
            role: "assistant",
            content: [
              { type: "thinking", thinking: "t", signature: "s" },
              { type: "tool_use", id: "a", name: "b", input: {} },
            ],
          },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "a", content: [{ type: "text", text: "r" }] }] },
        ],
        tools: [
          { name: "f", input_schema: { type: "object" } },
          { type: "web_search_20250305", name: "web_search" },
        ],
        tool_choice: { type: "any", disable_parallel_tool_use: true },
        thinking: { type: "enabled", budget_tokens: 2048 },
        output_config: { effort: "high", format: { type: "json_schema", schema: {} } },
        metadata: { user_id: null },
        user: "u",
        session_id: "s",
      }),
    ).toBe(true);
  });

  test("rejects malformed known blocks and over-long user / session_id", () => {
    expect(check.Check({ model: "m", messages: [{ role: "user", content: [{ type: "text" }] }] })).toBe(false);
    expect(check.Check({ model: "m", messages: [{ role: "user", content: [{ type: "tool_use", id: "x" }] }] })).toBe(false);
    expect(check.Check({ model: "m", messages: [], user: "x".repeat(257) })).toBe(false);
    expect(check.Check({ model: "m", messages: [], session_id: "x".repeat(257) })).toBe(false);
    expect(check.Check({ model: "m", messages: [], metadata: { user_id: "x".repeat(256) } })).toBe(true);
    expect(check.Check({ model: "m", messages: [], thinking: { type: "enabled" } })).toBe(false);
    expect(check.Check({ messages: [] })).toBe(false);
  });
});
