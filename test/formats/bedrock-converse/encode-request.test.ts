import { describe, expect, test } from "bun:test";
import { bedrockConverseUpstream } from "../../../src/formats/bedrock-converse";
import type { IRMessage, IRRequest } from "../../../src/ir/types";

const CLAUDE = "anthropic.claude-sonnet-4-20250514-v1:0";
const NOVA = "amazon.nova-pro-v1:0";
const PNG = "iVBORw0KGgo=";
const req = (messages: IRMessage[], extra: Partial<IRRequest> = {}): IRRequest => ({ messages, stream: false, sentParameters: [], ...extra });
const encode = (r: IRRequest, model = CLAUDE) => bedrockConverseUpstream.encodeRequest(r, model);

describe("Converse request encoding", () => {
  test("system, alternating turns, images, documents and cache points; the model stays in the URL", () => {
    const body = encode(
      req([
        { role: "system", content: [{ type: "text", text: "Be terse.", cacheControl: { type: "ephemeral" } }] },
        {
          role: "user",
          content: [
            { type: "text", text: "Look" },
            { type: "image", source: { kind: "url", url: `data:image/jpeg;base64,${PNG}` } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "image", source: { kind: "base64", mediaType: "image/webp", data: PNG } },
            { type: "image", source: { kind: "url", url: "s3://bucket/cat.gif" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "file", filename: "Q3 report (final).pdf", mediaType: "application/pdf", data: "JVBERi0=" },
            { type: "text", text: "  " },
          ],
        },
      ]),
    );
    expect(body).toEqual({
      system: [{ text: "Be terse." }, { cachePoint: { type: "default" } }],
      messages: [
        {
          role: "user",
          content: [
            { text: "Look" },
            { image: { format: "jpeg", source: { bytes: PNG } } },
            { image: { format: "webp", source: { bytes: PNG } } },
            { image: { format: "gif", source: { s3Location: { uri: "s3://bucket/cat.gif" } } } },
            { document: { format: "pdf", name: "Q3 report (final)", source: { bytes: "JVBERi0=" } } },
          ],
        },
      ],
    });
  });

  test("tool calls and their results; reasoning goes back to Bedrock only, with its signature or as redacted bytes", () => {
    const body = encode(
      req(
        [
          { role: "user", content: [{ type: "text", text: "Weather?" }] },
          {
            role: "assistant",
            content: [
              { type: "reasoning", text: "Think.", signature: "sig-1", origin: "bedrock" },
              { type: "reasoning", text: "", redacted: true, encrypted: "cmVk", origin: "bedrock" },
              { type: "reasoning", text: "Foreign.", signature: "sig-anthropic", origin: "anthropic-messages" },
              { type: "reasoning", text: "Unsigned.", origin: "bedrock" },
              { type: "text", text: "Checking." },
              { type: "tool_call", id: "tooluse_1", name: "get_weather", arguments: '{"city":"Paris"}' },
            ],
          },
          { role: "tool", toolCallId: "tooluse_1", content: "18C" },
          { role: "tool", toolCallId: "tooluse_2", content: [{ type: "text", text: "no such city" }], isError: true },
        ],
        { tools: [{ type: "function", name: "get_weather", description: "Weather", parameters: { type: "object" } }] },
      ),
    );
    expect(body.messages).toEqual([
      { role: "user", content: [{ text: "Weather?" }] },
      {
        role: "assistant",
        content: [
          { reasoningContent: { reasoningText: { text: "Think.", signature: "sig-1" } } },
          { reasoningContent: { redactedContent: "cmVk" } },
          { text: "Checking." },
          { toolUse: { toolUseId: "tooluse_1", name: "get_weather", input: { city: "Paris" } } },
        ],
      },
      {
        role: "user",
        content: [
          { toolResult: { toolUseId: "tooluse_1", content: [{ text: "18C" }] } },
          { toolResult: { toolUseId: "tooluse_2", content: [{ text: "no such city" }], status: "error" } },
        ],
      },
    ]);
    expect(body.toolConfig).toEqual({ tools: [{ toolSpec: { name: "get_weather", description: "Weather", inputSchema: { json: { type: "object" } } } }] });
  });

  test("tool_choice none leaves the tools out, unless the conversation used tools: then they stay declared, those it no longer lists with an open schema", () => {
    const tools = [{ type: "function" as const, name: "a", parameters: { type: "object" } }];
    expect(encode(req([{ role: "user", content: [{ type: "text", text: "x" }] }], { tools, toolChoice: { type: "none" } })).toolConfig).toBeUndefined();
    const history: IRMessage[] = [
      { role: "user", content: [{ type: "text", text: "x" }] },
      { role: "assistant", content: [{ type: "tool_call", id: "t1", name: "b", arguments: "{}" }] },
      { role: "tool", toolCallId: "t1", content: "ok" },
    ];
    expect(encode(req(history, { tools, toolChoice: { type: "none" } })).toolConfig).toEqual({
      tools: [{ toolSpec: { name: "a", inputSchema: { json: { type: "object" } } } }, { toolSpec: { name: "b", inputSchema: { json: { type: "object" } } } }],
    });
    expect(encode(req(history)).toolConfig).toEqual({ tools: [{ toolSpec: { name: "b", inputSchema: { json: { type: "object" } } } }] });
    expect(encode(req(history, { tools, toolChoice: { type: "tool", name: "a" } })).toolConfig).toMatchObject({ toolChoice: { tool: { name: "a" } } });
  });

  test("inference settings; reasoning as reasoning_config with the allowance above the budget; Claude-only fields", () => {
    const user: IRMessage[] = [{ role: "user", content: [{ type: "text", text: "x" }] }];
    expect(encode(req(user, { maxOutputTokens: 300, temperature: 0.2, topP: 0.9, topK: 40, stop: ["END"] }))).toMatchObject({
      inferenceConfig: { maxTokens: 300, temperature: 0.2, topP: 0.9, stopSequences: ["END"] },
      additionalModelRequestFields: { top_k: 40 },
      additionalModelResponseFieldPaths: ["/delta/stop_sequence"],
    });
    const thinking = encode(req(user, { maxOutputTokens: 2000, temperature: 0.2, topK: 40, reasoning: { maxTokens: 4000 } }));
    expect([thinking.inferenceConfig, thinking.additionalModelRequestFields]).toEqual([
      { maxTokens: 6000 },
      { reasoning_config: { type: "enabled", budget_tokens: 4000 } },
    ]);
    // another vendor's model gets neither top_k nor Anthropic's output_config, and no response field path
    const nova = encode(req(user, { topK: 40, stop: ["END"], responseFormat: { type: "json_schema", name: "x", schema: { type: "object" } } }), NOVA);
    expect([nova.additionalModelRequestFields, nova.additionalModelResponseFieldPaths]).toEqual([undefined, undefined]);
    expect(encode(req(user, { responseFormat: { type: "json_object" } })).additionalModelRequestFields).toEqual({
      output_config: { format: { type: "json_schema", schema: { type: "object", additionalProperties: true } } },
    });
  });
});
