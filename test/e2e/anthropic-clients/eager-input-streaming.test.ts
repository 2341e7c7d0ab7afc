// A tool's eager_input_streaming, sent by an Anthropic client, reaches an Anthropic upstream as sent.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Harness, MODEL, startHarness } from "../inference/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

test("eager_input_streaming on each tool reaches the Anthropic upstream unchanged", async () => {
  const schema = { type: "object" as const, properties: { path: { type: "string" } }, required: ["path"] };
  h.up.enqueue({ toolCalls: [{ id: "toolu_1", name: "write_file", arguments: '{"path":"a.txt"}' }], usage: { input: 20, output: 5 } });
  const stream = h.anthropic.messages.stream({
    model: MODEL["anthropic-messages"],
    max_tokens: 100,
    messages: [{ role: "user", content: "Write a.txt" }],
    tools: [
      { name: "write_file", description: "Writes a file", input_schema: schema, eager_input_streaming: true },
      { name: "read_file", input_schema: schema, eager_input_streaming: false },
      { name: "list_files", input_schema: schema },
    ],
  });
  const message = await stream.finalMessage();
  expect(message.content).toMatchObject([{ type: "tool_use", id: "toolu_1", name: "write_file", input: { path: "a.txt" } }]);
  expect(h.lastRequest().body.tools).toEqual([
    { name: "write_file", description: "Writes a file", input_schema: schema, eager_input_streaming: true },
    { name: "read_file", input_schema: schema, eager_input_streaming: false },
    { name: "list_files", input_schema: schema },
  ]);
});
