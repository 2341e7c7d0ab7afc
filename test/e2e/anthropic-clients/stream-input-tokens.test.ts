// A streamed /messages answer announces input tokens in message_start: from a Chat or Responses
// upstream, the gateway's own count (what count_tokens answers); from an Anthropic upstream, the
// upstream's figure. LangChain's ChatAnthropic reads input tokens only there.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { ChatAnthropic } from "@langchain/anthropic";
import { type AIMessageChunk, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { countTokens } from "gpt-tokenizer";
import { sseJson } from "../../support/sse";
import { fetchGeneration, type Harness, MODEL, post, startHarness, type UpstreamKind } from "../inference/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

const SYSTEM = "You answer in one short sentence.";
const QUESTION = "Which river runs through Paris, and how long is it?";
/** What the upstream reports: deliberately unlike the gateway's count. */
const UPSTREAM_USAGE = { input: 57, output: 6 };
const ANSWER = ["The Seine,", " 777 km."];

const gatewayCount = countTokens([SYSTEM, QUESTION].join("\n"));

describe("message_start.usage.input_tokens", () => {
  for (const upstream of ["openai-chat", "openai-responses"] as UpstreamKind[]) {
    test(`${upstream}: the gateway's count, which count_tokens gives too; exact figures follow in message_delta`, async () => {
      h.up.enqueue({ text: ANSWER, usage: UPSTREAM_USAGE });
      const body = { model: MODEL[upstream], max_tokens: 50, system: SYSTEM, messages: [{ role: "user" as const, content: QUESTION }] };
      const res = await post(h, "messages", { ...body, stream: true });
      const events = sseJson(await res.text());
      expect(events[0].message.usage).toMatchObject({ input_tokens: gatewayCount, output_tokens: 0 });
      expect(events.find((e) => e.type === "message_delta").usage).toMatchObject({ input_tokens: 57, output_tokens: 6 });
      expect(await h.anthropic.messages.countTokens(body)).toEqual({ input_tokens: gatewayCount });
      // the record keeps the upstream's figures
      const gen = await fetchGeneration(h, res.headers.get("x-generation-id")!);
      expect([gen.tokens_prompt, gen.tokens_completion]).toEqual([57, 6]);
    });
  }

  test("anthropic-messages: the upstream's own figure, as before", async () => {
    h.up.enqueue({ text: ANSWER, usage: UPSTREAM_USAGE });
    const res = await post(h, "messages", {
      model: MODEL["anthropic-messages"],
      max_tokens: 50,
      system: SYSTEM,
      messages: [{ role: "user", content: QUESTION }],
      stream: true,
    });
    const events = sseJson(await res.text());
    // same format in and out: the upstream's message_start passes through as it came
    expect(events[0].message.usage).toMatchObject({ input_tokens: 57 });
  });
});

describe("LangChain ChatAnthropic streaming usage", () => {
  const chat = (model: string) =>
    new ChatAnthropic({ model, apiKey: h.key, anthropicApiUrl: `${h.gw.url}/api`, maxRetries: 0, maxTokens: 50, streaming: true });

  for (const upstream of ["openai-chat", "openai-responses"] as UpstreamKind[]) {
    test(`${upstream}: usage_metadata.input_tokens is the gateway's count`, async () => {
      h.up.enqueue({ text: ANSWER, usage: UPSTREAM_USAGE });
      let merged: AIMessageChunk | undefined;
      for await (const chunk of await chat(MODEL[upstream]).stream([new SystemMessage(SYSTEM), new HumanMessage(QUESTION)])) {
        merged = merged ? merged.concat(chunk) : chunk;
      }
      expect(merged!.content).toBe("The Seine, 777 km.");
      expect(merged!.usage_metadata).toMatchObject({ input_tokens: gatewayCount, output_tokens: 6, total_tokens: gatewayCount + 6 });
    });
  }

  test("invoke with streaming on the Chat upstream reports the same", async () => {
    h.up.enqueue({ text: ANSWER, usage: UPSTREAM_USAGE });
    const answer = await chat(MODEL["openai-chat"]).invoke([new SystemMessage(SYSTEM), new HumanMessage(QUESTION)]);
    expect(answer.usage_metadata).toMatchObject({ input_tokens: gatewayCount, output_tokens: 6 });
  });
});
