import type { SseEvent } from "../../../src/ir/codec";
import { chunk, delta, events } from "./fixtures";

/**
 * What an OpenAI-compatible upstream streams for: DeepSeek-style reasoning_content, text, two
 * parallel tool calls with split arguments, the finish chunk, a usage-only chunk and [DONE].
 */
export const realistic: SseEvent[] = events(
  chunk([{ index: 0, delta: { role: "assistant", content: "", refusal: null }, logprobs: null, finish_reason: null }], { usage: null }),
  delta({ reasoning_content: "Two cities, " }),
  delta({ reasoning_content: "two calls." }),
  delta({ content: "Checking " }),
  delta({ content: "both." }),
  delta({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "get_weather", arguments: "" } }] }),
  delta({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
  delta({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
  delta({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } }] }),
  delta({}, "tool_calls"),
  chunk([], { usage: { prompt_tokens: 120, completion_tokens: 40, total_tokens: 160 } }),
  "[DONE]",
);
