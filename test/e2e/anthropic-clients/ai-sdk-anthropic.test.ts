// @ai-sdk/anthropic (createAnthropic with baseURL gateway + "/api/v1") through the gateway:
// generateText and streamText, text and usage, from every upstream format.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createAnthropic } from "@ai-sdk/anthropic";
import { generateText, streamText } from "ai";
import { type Harness, MODEL, startHarness, UPSTREAMS } from "../inference/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

const provider = () => createAnthropic({ baseURL: `${h.gw.url}/api/v1`, apiKey: h.key });
const TURN = { text: ["Bonjour", " tout le monde."], usage: { input: 41, output: 5 } };

describe("@ai-sdk/anthropic", () => {
  for (const upstream of UPSTREAMS) {
    test(`${upstream}: generateText`, async () => {
      h.up.enqueue(TURN);
      const result = await generateText({
        model: provider()(MODEL[upstream]),
        system: "Translate to French.",
        prompt: "Hello everyone.",
        maxOutputTokens: 40,
        maxRetries: 0,
      });
      expect(result.text).toBe("Bonjour tout le monde.");
      expect(result.finishReason).toBe("stop");
      expect(result.usage).toMatchObject({ inputTokens: 41, outputTokens: 5, totalTokens: 46 });
    });

    test(`${upstream}: streamText, with the exact usage of message_delta`, async () => {
      h.up.enqueue(TURN);
      const result = streamText({
        model: provider()(MODEL[upstream]),
        system: "Translate to French.",
        prompt: "Hello everyone.",
        maxOutputTokens: 40,
        maxRetries: 0,
      });
      let text = "";
      for await (const delta of result.textStream) text += delta;
      expect(text).toBe("Bonjour tout le monde.");
      expect(await result.finishReason).toBe("stop");
      expect(await result.usage).toMatchObject({ inputTokens: 41, outputTokens: 5, totalTokens: 46 });
    });
  }
});
