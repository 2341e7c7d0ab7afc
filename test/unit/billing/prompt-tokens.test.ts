import { expect, test } from "bun:test";
import { countTokens } from "gpt-tokenizer";
import { estimatePromptTokens, TOKENS_PER_IMAGE } from "../../../src/billing/estimate";
import { countPromptTokens } from "../../../src/billing/prompt-tokens";
import type { IRMessage } from "../../../src/ir/types";

const image = { type: "image" as const, source: { kind: "url" as const, url: "https://x.test/a.png" } };

const messages: IRMessage[] = [
  { role: "system", content: [{ type: "text", text: "Be brief." }] },
  { role: "user", content: [{ type: "text", text: "Compare these." }, image, image] },
  { role: "assistant", content: [{ type: "tool_call", id: "c1", name: "zoom", arguments: '{"x":1}' }] },
  { role: "tool", toolCallId: "c1", content: [{ type: "text", text: "zoomed" }, image] },
];
const tools = [{ type: "function" as const, name: "zoom", description: "Zoom in", parameters: { type: "object" } }];

test("text of every message and the tool definitions by the tokenizer; each image, tool results' too, at the flat rate", async () => {
  const text = [
    "Be brief.",
    "Compare these.",
    '{"x":1}',
    "zoomed",
    JSON.stringify({ name: "zoom", description: "Zoom in", parameters: { type: "object" } }),
  ].join("\n");
  expect(await countPromptTokens({ messages, tools })).toBe(countTokens(text) + 3 * TOKENS_PER_IMAGE);
  expect(await countPromptTokens({ messages: [] })).toBe(0);
});

test("the estimate for routing still counts images of user messages and tool results", () => {
  const chars = 4 * 8 + "Be brief.".length + "Compare these.".length + "zoom".length + '{"x":1}'.length + "zoomed".length;
  const toolChars = "zoom".length + "Zoom in".length + JSON.stringify({ type: "object" }).length;
  expect(estimatePromptTokens({ messages, tools })).toBe(Math.ceil((chars + toolChars) / 4) + 3 * TOKENS_PER_IMAGE);
});
