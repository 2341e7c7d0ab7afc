import type { ObservedGeneration } from "../contract";

/** A message as the span formats show it: a role and plain text (Datadog requires `content` to be a string). */
export type TextMessage = { role: string; content: string };

type Input = NonNullable<ObservedGeneration["input"]>;
type Output = NonNullable<ObservedGeneration["output"]>;

/**
 * The text of a content value in any of the inbound formats: a string, or parts of which the
 * text ones count (OpenAI `text`/`input_text`/`output_text`, Anthropic `text`); images, audio and
 * files are left out, as OpenRouter strips multimodal content from traces (its Broadcast overview).
 */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map(partText)
      .filter((text) => text !== "")
      .join("\n");
  if (content === null || content === undefined) return "";
  return partText(content);
}

function partText(part: unknown): string {
  if (typeof part === "string") return part;
  if (typeof part !== "object" || part === null) return "";
  const p = part as Record<string, unknown>;
  if (typeof p.text === "string") return p.text;
  // a tool result carries its output in `content`
  if (p.type === "tool_result" || p.type === "function_call_output") return contentText(p.content ?? p.output);
  return "";
}

/**
 * The request's messages as role and text, whatever the inbound format: Chat and Anthropic
 * `messages`, a Responses `input` (a string or items), or an embeddings input (a string or a list).
 */
export function inputMessages(input: Input): TextMessage[] {
  const { messages } = input;
  if (typeof messages === "string") return [{ role: "user", content: messages }];
  if (!Array.isArray(messages)) return messages === null || messages === undefined ? [] : [{ role: "user", content: JSON.stringify(messages) }];
  return messages.map((message): TextMessage => {
    if (typeof message === "string") return { role: "user", content: message };
    if (typeof message !== "object" || message === null) return { role: "user", content: JSON.stringify(message) };
    const m = message as Record<string, unknown>;
    const role = typeof m.role === "string" ? m.role : typeof m.type === "string" ? m.type : "user";
    return { role, content: contentText(m.content ?? m.output ?? m.arguments ?? "") };
  });
}

/** The completion as one assistant message; tool calls ride along as JSON text after the text. */
export function outputMessages(output: Output): TextMessage[] {
  const calls = output.toolCalls.length > 0 ? JSON.stringify(output.toolCalls) : "";
  const content = [output.text, calls].filter((part) => part !== "").join("\n");
  return [{ role: "assistant", content }];
}

/** The input as OpenAI-style `{messages}` (what Braintrust and Opik show best), tools included. */
export function structuredInput(input: Input): Record<string, unknown> {
  return {
    messages: input.messages,
    ...(input.tools === null ? {} : { tools: input.tools }),
    ...(Object.keys(input.parameters).length > 0 ? { parameters: input.parameters } : {}),
  };
}

/** The output as an OpenAI-style assistant message. */
export function structuredOutput(output: Output): Record<string, unknown> {
  return { role: "assistant", content: output.text, ...(output.toolCalls.length > 0 ? { tool_calls: output.toolCalls } : {}) };
}
