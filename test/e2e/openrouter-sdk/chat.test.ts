import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { costUsd, drain, result, type SdkHarness, sdk, startSdkHarness, unknownParts } from "./setup";

let h: SdkHarness;
beforeAll(async () => {
  h = await startSdkHarness();
});
afterAll(() => h.close());

const user = (content: string) => [{ role: "user" as const, content }];

const WEATHER_TOOL = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe("chat.send (non-streaming) via @openrouter/sdk", () => {
  test("text, usage with cached tokens, cost, and the generation record", async () => {
    h.up.enqueue({ text: "Hello there", usage: { input: 20, output: 4, cached: 5 } });
    const res = result(await h.client.chat.send({ chatRequest: { model: "acme/chat", messages: user("hi"), temperature: 0.2, maxTokens: 50 } }));
    expect(unknownParts(res)).toEqual([]);
    expect(res.object).toBe("chat.completion");
    expect(res.model).toBe("acme/chat");
    expect(res.choices.length).toBe(1);
    expect(res.choices[0]!.message.role).toBe("assistant");
    expect(res.choices[0]!.message.content).toBe("Hello there");
    expect(res.choices[0]!.finishReason).toBe("stop");
    expect(res.usage?.promptTokens).toBe(20);
    expect(res.usage?.completionTokens).toBe(4);
    expect(res.usage?.totalTokens).toBe(24);
    expect(res.usage?.promptTokensDetails?.cachedTokens).toBe(5);
    const cost = (15 * 1000 + 5 * 100 + 4 * 2000) / 1e9;
    expect(res.usage?.cost).toBeCloseTo(cost, 12);
    expect(h.up.requests.at(-1)!.body).toMatchObject({ model: "up-chat", temperature: 0.2, max_tokens: 50 });

    const gen = await h.client.generations.getGeneration({ id: res.id });
    expect(gen.data.id).toBe(res.id);
    expect(gen.data.model).toBe("acme/chat");
    // the gateway records the provider slug here (OpenRouter shows its display name)
    expect(gen.data.providerName).toBe("mock");
    expect(gen.data.tokensPrompt).toBe(20);
    expect(gen.data.tokensCompletion).toBe(4);
    expect(gen.data.nativeTokensCached).toBe(5);
    expect(gen.data.totalCost).toBeCloseTo(cost, 12);
    expect(gen.data.streamed).toBe(false);
    expect(gen.data.finishReason).toBe("stop");
    expect(gen.data.isByok).toBe(false);
  });

  test("tool calls come back with ids, names and exact arguments", async () => {
    h.up.enqueue({
      toolCalls: [
        { id: "call_a", name: "get_weather", arguments: '{"city":"Paris"}' },
        { id: "call_b", name: "get_weather", arguments: '{"city":"Oslo"}' },
      ],
      usage: { input: 30, output: 12 },
    });
    const res = result(
      await h.client.chat.send({ chatRequest: { model: "acme/chat", messages: user("weather?"), tools: [WEATHER_TOOL], toolChoice: "auto" } }),
    );
    const choice = res.choices[0]!;
    expect(choice.finishReason).toBe("tool_calls");
    expect(choice.message.toolCalls).toEqual([
      { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
      { id: "call_b", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
    ]);
    expect(res.usage?.cost).toBeCloseTo(costUsd(30, 12), 12);
    const sent = h.up.requests.at(-1)!.body;
    expect(sent.tools[0].function.name).toBe("get_weather");
    expect(sent.tool_choice).toBe("auto");
  });

  test("reasoning text and reasoning_details with reasoning tokens", async () => {
    h.up.enqueue({ reasoning: { text: "Let me think." }, text: "42", usage: { input: 8, output: 10, reasoning: 6 } });
    const res = result(await h.client.chat.send({ chatRequest: { model: "acme/chat", messages: user("meaning?"), reasoning: { effort: "high" } } }));
    const msg = res.choices[0]!.message;
    expect(msg.content).toBe("42");
    expect(msg.reasoning).toBe("Let me think.");
    expect(msg.reasoningDetails?.[0]).toMatchObject({ type: "reasoning.text", text: "Let me think." });
    expect(res.usage?.completionTokensDetails?.reasoningTokens).toBe(6);
  });

  test("encrypted reasoning from a Responses upstream survives as reasoning.encrypted", async () => {
    h.up.enqueue({ reasoning: { text: "summary here", encrypted: "ENC-BLOB" }, text: "done", usage: { input: 9, output: 3 } });
    const res = result(await h.client.chat.send({ chatRequest: { model: "acme/resp", messages: user("think") } }));
    const details = res.choices[0]!.message.reasoningDetails ?? [];
    expect(details.map((d) => d.type).sort()).toEqual(["reasoning.encrypted", "reasoning.summary"]);
    expect(details.find((d) => d.type === "reasoning.encrypted")).toMatchObject({ data: "ENC-BLOB" });
    expect(details.find((d) => d.type === "reasoning.summary")).toMatchObject({ summary: "summary here" });
    expect(res.choices[0]!.message.content).toBe("done");
  });
});

describe("chat.send (streaming) via @openrouter/sdk", () => {
  test("text deltas reassemble exactly; the last chunk carries usage and cost", async () => {
    h.up.enqueue({ text: ["Hel", "lo", ", world"], usage: { input: 11, output: 3 } });
    const stream = await h.client.chat.send({ chatRequest: { model: "acme/chat", messages: user("hi"), stream: true } });
    const chunks = await drain(stream);
    expect(unknownParts(chunks)).toEqual([]);
    expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("Hello, world");
    expect(chunks.map((c) => c.choices[0]?.finishReason).filter(Boolean)).toEqual(["stop"]);
    const usage = chunks.at(-1)!.usage;
    expect(usage?.promptTokens).toBe(11);
    expect(usage?.completionTokens).toBe(3);
    expect(usage?.totalTokens).toBe(14);
    expect(usage?.cost).toBeCloseTo(costUsd(11, 3), 12);

    const gen = await h.client.generations.getGeneration({ id: chunks[0]!.id });
    expect(gen.data.streamed).toBe(true);
    expect(gen.data.tokensCompletion).toBe(3);
  });

  test("streamed tool-call arguments reassemble exactly, with id and name on the first delta", async () => {
    h.up.enqueue({ toolCalls: [{ id: "call_s", name: "get_weather", arguments: ['{"ci', 'ty":"Ro', 'me"}'] }], usage: { input: 5, output: 7 } });
    const stream = await h.client.chat.send({ chatRequest: { model: "acme/chat", messages: user("weather?"), tools: [WEATHER_TOOL], stream: true } });
    const chunks = await drain(stream);
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.toolCalls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: "call_s", type: "function", function: { name: "get_weather" } });
    expect(calls.map((c) => c.function?.arguments ?? "").join("")).toBe('{"city":"Rome"}');
    expect(chunks.map((c) => c.choices[0]?.finishReason).filter(Boolean)).toEqual(["tool_calls"]);
    expect(chunks.at(-1)!.usage?.cost).toBeCloseTo(costUsd(5, 7), 12);
  });

  test("streamed reasoning arrives as reasoning and reasoning_details deltas", async () => {
    h.up.enqueue({ reasoning: { text: ["Step ", "one."] }, text: "ok", usage: { input: 4, output: 6, reasoning: 3 } });
    const stream = await h.client.chat.send({ chatRequest: { model: "acme/chat", messages: user("go"), stream: true } });
    const chunks = await drain(stream);
    expect(chunks.map((c) => c.choices[0]?.delta.reasoning ?? "").join("")).toBe("Step one.");
    const details = chunks.flatMap((c) => c.choices[0]?.delta.reasoningDetails ?? []);
    expect(details.every((d) => d.type === "reasoning.text")).toBe(true);
    expect(details.map((d) => (d.type === "reasoning.text" ? d.text : "")).join("")).toBe("Step one.");
    expect(chunks.at(-1)!.usage?.completionTokensDetails?.reasoningTokens).toBe(3);
  });
});

describe("chat.send edge cases via @openrouter/sdk", () => {
  test("finish reasons length and content_filter, and a refusal", async () => {
    h.up.enqueue({ text: "cut", finish: "length", usage: { input: 3, output: 1 } });
    const cut = result(await h.client.chat.send({ chatRequest: { model: "acme/chat", messages: user("long"), maxTokens: 1 } }));
    expect(cut.choices[0]!.finishReason).toBe("length");

    h.up.enqueue({ refusal: "I can't help with that.", finish: "content_filter", usage: { input: 3, output: 4 } });
    const refused = result(await h.client.chat.send({ chatRequest: { model: "acme/chat", messages: user("bad") } }));
    expect(refused.choices[0]!.finishReason).toBe("content_filter");
    expect(refused.choices[0]!.message.refusal).toBe("I can't help with that.");
  });

  test("X-OpenRouter-Metadata: enabled still parses, streaming or not", async () => {
    const res = result(await h.client.chat.send({ xOpenRouterMetadata: "enabled", chatRequest: { model: "acme/chat", messages: user("hi") } }));
    expect(res.choices[0]!.message.content).toBe("Hello from mock");
    const chunks = await drain(
      await h.client.chat.send({ xOpenRouterMetadata: "enabled", chatRequest: { model: "acme/chat", messages: user("hi"), stream: true } }),
    );
    expect(unknownParts(chunks)).toEqual([]);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("Hello from mock");
  });

  test("spend shows up in getCurrentKeyMetadata for a fresh key with a limit", async () => {
    const created = await h.admin.apiKeys.create({ requestBody: { name: "spender", limit: 1 } });
    const spender = sdk(h.gw, created.key);
    h.up.enqueue({ text: "a", usage: { input: 100, output: 50 } });
    const res = result(await spender.chat.send({ chatRequest: { model: "acme/chat", messages: user("spend") } }));
    const cost = costUsd(100, 50);
    expect(res.usage?.cost).toBeCloseTo(cost, 12);
    const meta = await spender.apiKeys.getCurrentKeyMetadata();
    expect(meta.data.usage).toBeCloseTo(cost, 12);
    expect(meta.data.usageDaily).toBeCloseTo(cost, 12);
    expect(meta.data.limit).toBe(1);
    expect(meta.data.limitRemaining).toBeCloseTo(1 - cost, 12);
    expect((await h.admin.apiKeys.get({ hash: created.data.hash })).data.usage).toBeCloseTo(cost, 12);
  });
});
