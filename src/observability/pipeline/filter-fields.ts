import type { ObservedGeneration } from "../contract";

/** The fields a filter rule may name, by the type of value they hold. */
export const STRING_FIELDS = ["model", "provider", "session_id", "user_id", "api_key_name", "finish_reason", "input", "output"] as const;
export const NUMBER_FIELDS = ["total_cost", "total_tokens", "prompt_tokens", "completion_tokens"] as const;

export type StringField = (typeof STRING_FIELDS)[number];
export type NumberField = (typeof NUMBER_FIELDS)[number];
export type FilterField = StringField | NumberField;

export const isStringField = (field: string): field is StringField => (STRING_FIELDS as readonly string[]).includes(field);
export const isNumberField = (field: string): field is NumberField => (NUMBER_FIELDS as readonly string[]).includes(field);

/**
 * A field's value in one generation; undefined when the generation has none (no session, no
 * captured input, an error without a finish reason), which fails every operator but not_exists.
 * `provider` is the provider's slug, `user_id` the request's `user`, `total_cost` USD.
 */
export function stringField(g: ObservedGeneration, field: StringField): string | undefined {
  switch (field) {
    case "model":
      return g.model;
    case "provider":
      return g.providerSlug ?? g.providerName ?? undefined;
    case "session_id":
      return g.sessionId ?? undefined;
    case "user_id":
      return g.externalUser ?? undefined;
    case "api_key_name":
      return g.keyName ?? undefined;
    case "finish_reason":
      return g.finishReason ?? undefined;
    case "input":
      return g.input ? inputText(g.input.messages) : undefined;
    case "output":
      return g.output ? g.output.text : undefined;
  }
}

export function numberField(g: ObservedGeneration, field: NumberField): number | undefined {
  const { prompt, completion } = g.tokens;
  switch (field) {
    case "total_cost":
      return g.cost.total;
    case "prompt_tokens":
      return prompt ?? undefined;
    case "completion_tokens":
      return completion ?? undefined;
    case "total_tokens":
      return prompt === null && completion === null ? undefined : (prompt ?? 0) + (completion ?? 0);
  }
}

/**
 * The text of the request's messages, in order, one per line: string contents and the `text` of
 * content parts, whichever inbound format they are in (Chat messages, Responses items, Messages
 * blocks, an embeddings or video prompt). Images, audio and tool definitions are not text.
 */
export function inputText(messages: unknown): string {
  const out: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 8) return;
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) for (const item of value) visit(item, depth + 1);
    else if (value !== null && typeof value === "object") {
      const o = value as Record<string, unknown>;
      if (typeof o.text === "string") out.push(o.text);
      if (o.content !== undefined) visit(o.content, depth + 1);
      else if (o.output !== undefined && typeof o.output === "string") out.push(o.output);
    }
  };
  visit(messages, 0);
  return out.join("\n");
}
