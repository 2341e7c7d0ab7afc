import type { IRMessage, IRRequest } from "../../ir/types";

const text = (value: string) => ({ type: "text" as const, text: value });

/**
 * The preset's system prompt before the request's own instructions. A leading system message of
 * one plain text gets the prompt joined in front of it, so the upstream sees one instruction text
 * (Chat `"Preset.\n\nOwn."`) whichever endpoint the request came through; one of several parts, or
 * with a cache breakpoint that must stay where the client put it, gets the prompt as a part of its
 * own before them; a request without one gets the prompt as a system message of its own.
 * `instructions` (what a Responses result echoes) become the request's own with the prompt in
 * front, or the prompt alone where the request had no leading system message.
 */
export function prependSystemPrompt(request: IRRequest, prompt: string): Pick<IRRequest, "messages" | "instructions"> {
  const [first, ...rest] = request.messages;
  if (first?.role !== "system") return { messages: [{ role: "system", content: [text(prompt)] }, ...request.messages], instructions: prompt };
  const [only] = first.content;
  const joined = first.content.length === 1 && only !== undefined && !only.cacheControl;
  const content = joined ? [text(only.text === "" ? prompt : `${prompt}\n\n${only.text}`)] : [text(prompt), ...first.content];
  const messages: IRMessage[] = [{ role: "system", content }, ...rest];
  return request.instructions === undefined ? { messages } : { messages, instructions: content[0]!.text };
}
