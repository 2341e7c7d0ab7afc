import type { SseEvent } from "../../../src/ir/codec";
import { events } from "./fixtures";

/**
 * What Azure OpenAI streams (keys sorted as Azure writes them): a chunk holding only the prompt's
 * content-filter results, with empty id, model and object; the role chunk; content chunks each with
 * their filter results; a tool call; the finish; the usage chunk; [DONE].
 * https://learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter
 */
const SAFE = { filtered: false, severity: "safe" };
export const AZURE_SAFE = { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE };
export const AZURE_PROMPT_FILTER = [{ prompt_index: 0, content_filter_results: { ...AZURE_SAFE, jailbreak: { filtered: false, detected: false } } }];

export const azureOpening = { choices: [], created: 0, id: "", model: "", object: "", prompt_filter_results: AZURE_PROMPT_FILTER };

export const azureChunk = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  choices: [{ content_filter_results: AZURE_SAFE, finish_reason: null, index: 0, logprobs: null, ...choice }],
  created: 1748977994,
  id: "chatcmpl-az",
  model: "gpt-4o-2024-11-20",
  object: "chat.completion.chunk",
  system_fingerprint: "fp_ee1d74bde0",
  ...extra,
});

export const azureStream = (finish = "tool_calls"): SseEvent[] =>
  events(
    azureOpening,
    azureChunk({ content_filter_results: {}, delta: { content: "", refusal: null, role: "assistant" } }),
    azureChunk({ delta: { content: "Checking." } }),
    azureChunk({
      content_filter_results: {},
      delta: { tool_calls: [{ function: { arguments: "", name: "get_weather" }, id: "call_a", index: 0, type: "function" }] },
    }),
    azureChunk({ content_filter_results: {}, delta: { tool_calls: [{ function: { arguments: '{"city":"Paris"}' }, index: 0 }] } }),
    azureChunk({ content_filter_results: {}, delta: {}, finish_reason: finish }),
    {
      choices: [],
      created: 1748977994,
      id: "chatcmpl-az",
      model: "gpt-4o-2024-11-20",
      object: "chat.completion.chunk",
      system_fingerprint: "fp_ee1d74bde0",
      usage: { completion_tokens: 9, prompt_tokens: 20, total_tokens: 29 },
    },
    "[DONE]",
  );

/**
 * With Azure's asynchronous filter, the filter's verdicts on text already sent come in chunks of
 * their own, with no delta, and (like the opening chunk) empty id, model, object and created.
 * https://learn.microsoft.com/azure/ai-foundry/openai/concepts/content-streaming
 */
export const azureAsyncFilterChunk = {
  choices: [{ content_filter_offsets: { check_offset: 0, end_offset: 9, start_offset: 0 }, content_filter_results: AZURE_SAFE, finish_reason: null, index: 0 }],
  created: 0,
  id: "",
  model: "",
  object: "",
};
