import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { costUsd, drain, result, type SdkHarness, startSdkHarness, unknownParts } from "./setup";

let h: SdkHarness;
beforeAll(async () => {
  h = await startSdkHarness();
});
afterAll(() => h.close());

const WEATHER_TOOL = {
  type: "function" as const,
  name: "get_weather",
  description: "Weather for a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

// Both upstream kinds: the same-format pass-through (acme/resp) and the translated one (acme/chat).
for (const model of ["acme/resp", "acme/chat"]) {
  describe(`responses.send via @openrouter/sdk (${model})`, () => {
    test("non-streaming text with usage and cost", async () => {
      h.up.enqueue({ text: "Bonjour", usage: { input: 12, output: 2, cached: 2 } });
      const res = result(await h.client.responses.send({ responsesRequest: { model, input: "say hi", instructions: "French.", maxOutputTokens: 40 } }));
      expect(unknownParts(res)).toEqual([]);
      expect(res.object).toBe("response");
      expect(res.status).toBe("completed");
      expect(res.model).toBe(model);
      const messages = res.output.filter((o) => o.type === "message");
      expect(messages.length).toBe(1);
      const msg = messages[0] as Extract<(typeof res.output)[number], { type: "message" }>;
      expect(msg.role).toBe("assistant");
      expect(msg.content.map((c) => (c.type === "output_text" ? c.text : ""))).toEqual(["Bonjour"]);
      expect(res.usage?.inputTokens).toBe(12);
      expect(res.usage?.outputTokens).toBe(2);
      expect(res.usage?.totalTokens).toBe(14);
      expect(res.usage?.inputTokensDetails.cachedTokens).toBe(2);
      expect(res.usage?.cost).toBeCloseTo((10 * 1000 + 2 * 100 + 2 * 2000) / 1e9, 12);

      const gen = await h.client.generations.getGeneration({ id: res.id });
      expect(gen.data.model).toBe(model);
      expect(gen.data.tokensPrompt).toBe(12);
    });

    test("non-streaming function call and reasoning", async () => {
      h.up.enqueue({
        reasoning: { text: "Need the weather tool." },
        toolCalls: [{ id: "call_r", name: "get_weather", arguments: '{"city":"Lima"}' }],
        usage: { input: 15, output: 9, reasoning: 4 },
      });
      const res = result(await h.client.responses.send({ responsesRequest: { model, input: "weather in Lima?", tools: [WEATHER_TOOL] } }));
      expect(unknownParts(res)).toEqual([]);
      const call = res.output.find((o) => o.type === "function_call");
      expect(call).toMatchObject({ type: "function_call", callId: "call_r", name: "get_weather", arguments: '{"city":"Lima"}' });
      const reasoning = res.output.find((o) => o.type === "reasoning");
      expect(reasoning).toBeDefined();
      expect(JSON.stringify(reasoning)).toContain("Need the weather tool.");
      expect(res.usage?.outputTokensDetails.reasoningTokens).toBe(4);
      expect(res.usage?.cost).toBeCloseTo(costUsd(15, 9), 12);
    });

    test("streaming: every event parses, deltas reassemble, completed carries usage", async () => {
      h.up.enqueue({ reasoning: { text: ["Hmm", "."] }, text: ["Ciao", " a", " tutti"], usage: { input: 7, output: 5 } });
      const stream = await h.client.responses.send({ responsesRequest: { model, input: "hi", stream: true } });
      const events = await drain(stream);
      expect(unknownParts(events)).toEqual([]);
      const types = events.map((e) => e.type);
      expect(types[0]).toBe("response.created");
      expect(types.at(-1)).toBe("response.completed");
      const seqs = events.map((e) => ("sequenceNumber" in e ? e.sequenceNumber : -1));
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
      const text = events.flatMap((e) => (e.type === "response.output_text.delta" ? [e.delta] : [])).join("");
      expect(text).toBe("Ciao a tutti");
      const done = events.find((e) => e.type === "response.output_text.done");
      expect(done && "text" in done ? done.text : null).toBe("Ciao a tutti");
      const completed = events.at(-1)!;
      if (completed.type !== "response.completed") throw new Error("no completed event");
      expect(completed.response.status).toBe("completed");
      expect(completed.response.usage?.inputTokens).toBe(7);
      expect(completed.response.usage?.outputTokens).toBe(5);
      expect(completed.response.usage?.cost).toBeCloseTo(costUsd(7, 5), 12);
    });

    test("a length stop is an incomplete response with max_output_tokens", async () => {
      h.up.enqueue({ text: "trunc", finish: "length", usage: { input: 3, output: 1 } });
      const res = result(await h.client.responses.send({ responsesRequest: { model, input: "long", maxOutputTokens: 16 } }));
      expect(unknownParts(res)).toEqual([]);
      expect(res.status).toBe("incomplete");
      expect(res.incompleteDetails?.reason).toBe("max_output_tokens");
    });

    test("streaming function-call arguments reassemble exactly", async () => {
      h.up.enqueue({ toolCalls: [{ id: "call_sr", name: "get_weather", arguments: ['{"ci', 'ty":', '"Kyiv"}'] }], usage: { input: 6, output: 8 } });
      const stream = await h.client.responses.send({ responsesRequest: { model, input: "weather?", tools: [WEATHER_TOOL], stream: true } });
      const events = await drain(stream);
      expect(unknownParts(events)).toEqual([]);
      const args = events.flatMap((e) => (e.type === "response.function_call_arguments.delta" ? [e.delta] : [])).join("");
      expect(args).toBe('{"city":"Kyiv"}');
      const added = events.find((e) => e.type === "response.output_item.added" && e.item.type === "function_call");
      expect(added && added.type === "response.output_item.added" ? added.item : null).toMatchObject({ callId: "call_sr", name: "get_weather" });
      const completed = events.at(-1)!;
      if (completed.type !== "response.completed") throw new Error("no completed event");
      expect(completed.response.output.find((o) => o.type === "function_call")).toMatchObject({ callId: "call_sr", arguments: '{"city":"Kyiv"}' });
    });
  });
}
