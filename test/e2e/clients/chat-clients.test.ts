// The Chat Completions clients people point at a gateway, each driven as its users drive it:
// text, streaming with usage, and a tool round trip, against every upstream format.
// (Responses, Anthropic and the OpenRouter SDK have their own files.)
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { type AIMessageChunk, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { createOpenRouter } from "@openrouter/ai-sdk-provider";
import { generateText, type LanguageModel, stepCountIs, streamText, tool } from "ai";
import { z } from "zod";
import { type Harness, MODEL, startHarness, UPSTREAMS, type UpstreamKind, WIRE } from "../inference/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

const USAGE = { input: 12, output: 7 };
const WEATHER_CALL = { id: "call_w1", name: "weather", arguments: ['{"city":', '"Paris"}'] };

type AiSdkClient = { name: string; model: (id: string) => LanguageModel };
const aiSdkClients = (): AiSdkClient[] => {
  const baseURL = `${h.gw.url}/api/v1`;
  const openai = createOpenAI({ baseURL, apiKey: h.key });
  const compatible = createOpenAICompatible({ name: "gateway", baseURL, apiKey: h.key, includeUsage: true });
  const openrouter = createOpenRouter({ baseURL, apiKey: h.key });
  return [
    { name: "@ai-sdk/openai chat", model: (id) => openai.chat(id) },
    { name: "@ai-sdk/openai-compatible", model: (id) => compatible.chatModel(id) },
    { name: "@openrouter/ai-sdk-provider", model: (id) => openrouter.chat(id) },
  ];
};

const weather = tool({
  description: "Weather in a city",
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => `sunny in ${city}`,
});

/** The tool result the second upstream request carried, in whichever format the upstream speaks. */
function toolResultSent(upstream: UpstreamKind): unknown {
  const body = h.up.requests[1]!.body as any;
  // Gemini takes a text result wrapped in an object
  if (WIRE[upstream] === "gemini") return body.contents.flatMap((c: any) => c.parts).find((p: any) => p.functionResponse)?.functionResponse.response.result;
  if (WIRE[upstream] === "openai-chat") return body.messages.find((m: any) => m.role === "tool")?.content;
  if (WIRE[upstream] === "openai-responses") return body.input.find((i: any) => i.type === "function_call_output")?.output;
  if (upstream === "bedrock") return body.messages.flatMap((m: any) => m.content).find((b: any) => b.toolResult)?.toolResult.content[0]?.text;
  const block = body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).find((b: any) => b.type === "tool_result");
  return typeof block?.content === "string" ? block.content : block?.content?.[0]?.text;
}

for (const upstream of UPSTREAMS) {
  describe(`AI SDK chat clients -> ${upstream}`, () => {
    for (const client of ["@ai-sdk/openai chat", "@ai-sdk/openai-compatible", "@openrouter/ai-sdk-provider"]) {
      test(`${client}: generateText with usage`, async () => {
        h.up.enqueue({ text: "Hello there", usage: USAGE });
        const c = aiSdkClients().find((x) => x.name === client)!;
        const out = await generateText({ model: c.model(MODEL[upstream]), prompt: "hi", maxRetries: 0 });
        expect(out.text).toBe("Hello there");
        expect(out.finishReason).toBe("stop");
        expect(out.usage.inputTokens).toBe(12);
        expect(out.usage.outputTokens).toBe(7);
      });

      test(`${client}: streamText with usage`, async () => {
        h.up.enqueue({ text: ["Hel", "lo ", "there"], usage: USAGE });
        const c = aiSdkClients().find((x) => x.name === client)!;
        const out = streamText({ model: c.model(MODEL[upstream]), prompt: "hi", maxRetries: 0 });
        expect(await out.text).toBe("Hello there");
        const usage = await out.usage;
        expect(usage.inputTokens).toBe(12);
        expect(usage.outputTokens).toBe(7);
      });

      test(`${client}: a tool round trip, streaming`, async () => {
        h.up.enqueue({ toolCalls: [WEATHER_CALL], usage: USAGE }, { text: "It is sunny.", usage: USAGE });
        const c = aiSdkClients().find((x) => x.name === client)!;
        const out = streamText({ model: c.model(MODEL[upstream]), prompt: "weather?", tools: { weather }, stopWhen: stepCountIs(3), maxRetries: 0 });
        expect(await out.text).toBe("It is sunny.");
        const steps = await out.steps;
        expect(steps[0]!.toolCalls.map((call) => [call.toolName, call.input])).toEqual([["weather", { city: "Paris" }]]);
        expect(h.up.requests.length).toBe(2);
        expect(toolResultSent(upstream)).toBe("sunny in Paris");
      });
    }
  });

  describe(`LangChain ChatOpenAI -> ${upstream}`, () => {
    const chat = () => new ChatOpenAI({ model: MODEL[upstream], apiKey: h.key, configuration: { baseURL: `${h.gw.url}/api/v1` }, maxRetries: 0 });

    test("invoke with usage_metadata", async () => {
      h.up.enqueue({ text: "Hello there", usage: USAGE });
      const out = await chat().invoke("hi");
      expect(out.content).toBe("Hello there");
      expect(out.usage_metadata).toMatchObject({ input_tokens: 12, output_tokens: 7, total_tokens: 19 });
    });

    test("stream with usage_metadata", async () => {
      h.up.enqueue({ text: ["Hel", "lo ", "there"], usage: USAGE });
      let all: AIMessageChunk | undefined;
      for await (const chunk of await chat().stream("hi")) all = all ? all.concat(chunk) : chunk;
      expect(all!.content).toBe("Hello there");
      expect(all!.usage_metadata).toMatchObject({ input_tokens: 12, output_tokens: 7, total_tokens: 19 });
    });

    test("bindTools: the call's arguments, then the answer to its result", async () => {
      h.up.enqueue({ toolCalls: [WEATHER_CALL], usage: USAGE }, { text: "It is sunny.", usage: USAGE });
      const model = chat().bindTools([
        {
          type: "function",
          function: {
            name: "weather",
            description: "Weather in a city",
            parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          },
        },
      ]);
      const ask = new HumanMessage("weather?");
      const first = await model.invoke([ask]);
      expect(first.tool_calls?.map((c) => [c.name, c.args, c.id])).toEqual([["weather", { city: "Paris" }, "call_w1"]]);
      const second = await model.invoke([ask, first, new ToolMessage({ content: "sunny in Paris", tool_call_id: "call_w1" })]);
      expect(second.content).toBe("It is sunny.");
      expect(toolResultSent(upstream)).toBe("sunny in Paris");
    });
  });
}
