import type { IRResult, IRStreamPart } from "../../ir/types";
import type { CapturedOutput, CapturedToolCall } from "./captured-content";

/** The answer of a whole (non-streamed) result: text and refusals, reasoning, tool calls. */
export function resultOutput(result: Pick<IRResult, "content">): CapturedOutput {
  let text = "";
  let reasoning = "";
  const toolCalls: CapturedToolCall[] = [];
  for (const part of result.content) {
    if (part.type === "text") text += part.text;
    else if (part.type === "refusal") text += part.refusal;
    else if (part.type === "reasoning") reasoning += part.text;
    else toolCalls.push({ id: part.id, name: part.name, arguments: part.arguments });
  }
  return { text, reasoning, toolCalls };
}

/**
 * Collects a stream's answer as its parts go by. Made only for a request whose workspace forwards
 * or keeps content, so other streams keep nothing but what metering needs.
 */
export class StreamContent {
  private text: string[] = [];
  private reasoning: string[] = [];
  private calls: Array<{ id: string; name: string; args: string[] }> = [];
  private openCall: { id: string; name: string; args: string[] } | null = null;

  observe(part: IRStreamPart): void {
    switch (part.type) {
      case "text-delta":
      case "refusal-delta":
        this.text.push(part.text);
        return;
      case "reasoning-delta":
        this.reasoning.push(part.text);
        return;
      case "block-start":
        this.openCall = part.block.type === "tool_call" ? { id: part.block.id, name: part.block.name, args: [] } : null;
        if (this.openCall) this.calls.push(this.openCall);
        return;
      case "tool-args-delta":
        this.openCall?.args.push(part.delta);
        return;
      case "block-end":
        this.openCall = null;
        return;
    }
  }

  output(): CapturedOutput {
    return {
      text: this.text.join(""),
      reasoning: this.reasoning.join(""),
      toolCalls: this.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.args.join("") })),
    };
  }
}
