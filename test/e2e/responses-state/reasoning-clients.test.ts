// One reasoning shape per request, read by the clients that care: @ai-sdk/openai and LangChain
// ask for `reasoning.summary` and read summaries only; @openrouter/agent asks for none and reads
// reasoning_text only. Each gets the reasoning of every upstream format, streamed and not.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createOpenAI } from "@ai-sdk/openai";
import type { AIMessageChunk } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { OpenRouter } from "@openrouter/agent/openrouter";
import { generateText, streamText } from "ai";
import { type Harness, MODEL, REASONING_UPSTREAMS, startHarness } from "../inference/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

const THOUGHT = ["Weigh ", "the options."];
const TURN = { reasoning: { text: THOUGHT }, text: "Answer." };

/** LangChain's reasoning: content blocks of type "reasoning", in order. */
function langchainReasoning(message: AIMessageChunk): string {
  const content = Array.isArray(message.content) ? message.content : [];
  return content.flatMap((part: any) => (part.type === "reasoning" && typeof part.reasoning === "string" ? [part.reasoning] : [])).join("");
}

const MODES = [false, true] as const;

describe("reasoning reaches each client, whatever the upstream format", () => {
  for (const upstream of REASONING_UPSTREAMS) {
    for (const stream of MODES) {
      const label = `${upstream} ${stream ? "stream" : "json"}`;

      test(`@ai-sdk/openai (summaries): ${label}`, async () => {
        h.up.enqueue(TURN);
        const openai = createOpenAI({ baseURL: `${h.gw.url}/api/v1`, apiKey: h.key });
        const options = {
          model: openai.responses(MODEL[upstream]),
          prompt: "q",
          providerOptions: { openai: { forceReasoning: true, reasoningEffort: "low" } },
        };
        const reasoning = stream ? await streamText(options).reasoningText : (await generateText(options)).reasoningText;
        expect(reasoning).toBe("Weigh the options.");
      });

      test(`LangChain ChatOpenAI useResponsesApi (summaries): ${label}`, async () => {
        h.up.enqueue(TURN);
        const chat = new ChatOpenAI({
          model: MODEL[upstream],
          apiKey: h.key,
          configuration: { baseURL: `${h.gw.url}/api/v1` },
          useResponsesApi: true,
          // LangChain sends `reasoning` only for model names it knows (o*, gpt-5*); modelKwargs sends it for ours
          modelKwargs: { reasoning: { effort: "low", summary: "auto" } },
          maxRetries: 0,
        });
        if (!stream) {
          const message = await chat.invoke("q");
          expect(langchainReasoning(message as AIMessageChunk)).toBe("Weigh the options.");
          expect((message.additional_kwargs.reasoning as any).summary.map((s: any) => s.text).join("")).toBe("Weigh the options.");
          expect(message.text).toBe("Answer.");
          return;
        }
        let text = "";
        let reasoning = "";
        for await (const chunk of await chat.stream("q")) {
          reasoning += langchainReasoning(chunk);
          text += chunk.text;
        }
        expect(reasoning).toBe("Weigh the options.");
        expect(text).toBe("Answer.");
      });

      test(`@openrouter/agent (reasoning_text): ${label}`, async () => {
        h.up.enqueue(TURN);
        const client = new OpenRouter({ apiKey: h.key, serverURL: `${h.gw.url}/api/v1`, retryConfig: { strategy: "none" } });
        const result = client.callModel({ model: MODEL[upstream], input: "q", reasoning: { effort: "low" } });
        expect(h.up.requests.length).toBeLessThanOrEqual(1);
        if (stream) {
          const deltas: string[] = [];
          for await (const delta of result.getReasoningStream()) deltas.push(delta);
          expect(deltas).toEqual(THOUGHT);
        } else {
          const response = await result.getResponse();
          const items = response.output.flatMap((item) => (item.type === "reasoning" ? [item] : []));
          expect(items.map((item) => ({ summary: item.summary, content: item.content }))).toEqual([
            { summary: [], content: [{ type: "reasoning_text", text: "Weigh the options." }] },
          ]);
        }
        expect(await result.getText()).toBe("Answer.");
        // the agent asked for no summary, so none was requested upstream either
        expect(h.lastRequest().body.reasoning?.summary).toBeUndefined();
      });
    }
  }
});

describe("a Responses upstream that sends raw reasoning only (open-weight models behind vLLM): summaries still reach the clients that read only them", () => {
  const RAW_TURN = { reasoning: { text: THOUGHT, summary: false }, text: "Answer." };

  for (const stream of MODES) {
    test(`LangChain ChatOpenAI useResponsesApi: ${stream ? "stream" : "json"}`, async () => {
      h.up.enqueue(RAW_TURN);
      const chat = new ChatOpenAI({
        model: MODEL["openai-responses"],
        apiKey: h.key,
        configuration: { baseURL: `${h.gw.url}/api/v1` },
        useResponsesApi: true,
        modelKwargs: { reasoning: { effort: "low", summary: "auto" } },
        maxRetries: 0,
      });
      let reasoning = "";
      if (stream) for await (const chunk of await chat.stream("q")) reasoning += langchainReasoning(chunk);
      else {
        const message = (await chat.invoke("q")) as AIMessageChunk;
        reasoning = langchainReasoning(message);
        expect((message.additional_kwargs.reasoning as any).summary).toEqual([{ type: "summary_text", text: "Weigh the options." }]);
      }
      expect(reasoning).toBe("Weigh the options.");
    });

    test(`@ai-sdk/openai: ${stream ? "stream" : "json"}`, async () => {
      h.up.enqueue(RAW_TURN);
      const openai = createOpenAI({ baseURL: `${h.gw.url}/api/v1`, apiKey: h.key });
      const options = {
        model: openai.responses(MODEL["openai-responses"]),
        prompt: "q",
        providerOptions: { openai: { forceReasoning: true, reasoningEffort: "low", reasoningSummary: "auto" } },
      };
      const reasoning = stream ? await streamText(options).reasoningText : (await generateText(options)).reasoningText;
      expect(reasoning).toBe("Weigh the options.");
    });
  }
});
