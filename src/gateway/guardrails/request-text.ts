import type { IRMessage, IRRequest } from "../../ir/types";

/** Where a text of a request sits: the role of its message, and whether it is a tool call's arguments or a tool's result. */
export type TextSite = { role: IRMessage["role"]; part: "text" | "tool_arguments" | "tool_result" };

export type TextEdit = (text: string, site: TextSite) => string;

/**
 * The request with every text a content filter scans passed through `edit`: system prompts (and
 * Responses `instructions`), message text, tool-call arguments and tool results
 * [https://openrouter.ai/docs/guides/features/guardrails/sensitive-info]. Reasoning is left as it
 * is: its signature covers its text. A part `edit` leaves unchanged stays the same object.
 */
export function mapRequestText(ir: IRRequest, edit: TextEdit): IRRequest {
  const messages = ir.messages.map((m) => mapMessage(m, edit));
  const instructions = ir.instructions === undefined ? undefined : edit(ir.instructions, { role: "system", part: "text" });
  return { ...ir, messages, ...(instructions === undefined ? {} : { instructions }) };
}

function mapMessage(m: IRMessage, edit: TextEdit): IRMessage {
  const text = { role: m.role, part: "text" } as const;
  switch (m.role) {
    case "system":
      return { ...m, content: m.content.map((p) => withText(p, edit(p.text, text))) };
    case "user":
      return { ...m, content: m.content.map((p) => (p.type === "text" ? withText(p, edit(p.text, text)) : p)) };
    case "assistant":
      return {
        ...m,
        content: m.content.map((p) => {
          if (p.type === "text") return withText(p, edit(p.text, text));
          if (p.type === "tool_call") {
            const args = edit(p.arguments, { role: "assistant", part: "tool_arguments" });
            return args === p.arguments ? p : { ...p, arguments: args };
          }
          return p;
        }),
      };
    case "tool": {
      const site = { role: "tool", part: "tool_result" } as const;
      if (typeof m.content === "string") return { ...m, content: edit(m.content, site) };
      return { ...m, content: m.content.map((p) => (p.type === "text" ? withText(p, edit(p.text, site)) : p)) };
    }
  }
}

const withText = <P extends { text: string }>(part: P, text: string): P => (text === part.text ? part : { ...part, text });
