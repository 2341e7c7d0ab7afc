// One neutral description of a request (Spec), built into each inbound format's own body,
// sent with the real SDK (create, or the stream helper with its final accumulated object),
// and the answer read back into one neutral shape (Answer). This is what lets the golden
// tests run every scenario over 3 inbound formats x 3 upstream kinds x stream/non-stream.
import { type Harness, INBOUNDS, type Inbound, UPSTREAMS, type UpstreamKind } from "./harness";

/** One cell of the golden matrix. */
export type GoldenCase = { inbound: Inbound; upstream: UpstreamKind; stream: boolean };

/** Every inbound format x every upstream kind x JSON and stream. */
export const MATRIX: GoldenCase[] = INBOUNDS.flatMap((inbound) =>
  UPSTREAMS.flatMap((upstream) => [false, true].map((stream) => ({ inbound, upstream, stream }))),
);

/** A cell's test name, e.g. `chat -> anthropic-messages stream`. */
export const caseLabel = (c: GoldenCase) => `${c.inbound} -> ${c.upstream} ${c.stream ? "stream" : "json"}`;

export type ImageSpec = { kind: "url"; url: string } | { kind: "base64"; mediaType: string; data: string };
export type ToolSpec = { name: string; description: string; parameters: Record<string, unknown> };

export type Turn =
  | { role: "user"; text: string; images?: ImageSpec[] }
  | { role: "assistant"; text: string }
  /** items in the inbound format itself, e.g. a previous answer sent back (Answer.history) */
  | { role: "native"; items: unknown[] }
  | { role: "tool"; id: string; content: string };

export type Spec = {
  model: string;
  system?: string;
  turns: Turn[];
  tools?: ToolSpec[];
  toolChoice?: "auto" | "none" | "required" | { name: string };
  maxTokens?: number;
  stop?: string[];
  schema?: { name: string; schema: Record<string, unknown> };
  /** chat reasoning_effort / responses reasoning.effort */
  effort?: "low" | "medium" | "high";
  /** responses reasoning.summary (the other formats have no such field) */
  summary?: "auto" | "concise" | "detailed";
  /** messages thinking.budget_tokens */
  thinkingBudget?: number;
};

export type Answer = {
  id: string;
  model: string;
  text: string;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  /** chat finish_reason; responses `status` or `incomplete:<reason>`; messages stop_reason */
  finish: string;
  /** messages stop_sequence (undefined for the other formats) */
  stopSequence?: string | null;
  reasoning: Array<{ text: string; signature?: string }>;
  /** prompt tokens INCLUDING cached and cache writes, whatever the inbound format's convention */
  usage: { input: number; output: number; cached: number; cacheWrite: number; reasoning: number; cost: number | undefined };
  /** the answer as the client sends it back as history next turn */
  history: unknown[];
  raw: any;
};

// ---------- request bodies ----------

function chatBody(spec: Spec): any {
  const messages: any[] = [];
  if (spec.system !== undefined) messages.push({ role: "system", content: spec.system });
  for (const turn of spec.turns) {
    if (turn.role === "native") messages.push(...turn.items);
    else if (turn.role === "assistant") messages.push({ role: "assistant", content: turn.text });
    else if (turn.role === "tool") messages.push({ role: "tool", tool_call_id: turn.id, content: turn.content });
    else if (!turn.images) messages.push({ role: "user", content: turn.text });
    else {
      const images = turn.images.map((img) => ({
        type: "image_url",
        image_url: { url: img.kind === "url" ? img.url : `data:${img.mediaType};base64,${img.data}` },
      }));
      messages.push({ role: "user", content: [{ type: "text", text: turn.text }, ...images] });
    }
  }
  const body: any = { model: spec.model, messages };
  if (spec.tools) body.tools = spec.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
  if (spec.toolChoice)
    body.tool_choice = typeof spec.toolChoice === "string" ? spec.toolChoice : { type: "function", function: { name: spec.toolChoice.name } };
  if (spec.maxTokens !== undefined) body.max_completion_tokens = spec.maxTokens;
  if (spec.stop) body.stop = spec.stop;
  if (spec.schema) body.response_format = { type: "json_schema", json_schema: { name: spec.schema.name, schema: spec.schema.schema, strict: true } };
  if (spec.effort) body.reasoning_effort = spec.effort;
  return body;
}

function responsesBody(spec: Spec): any {
  const input: any[] = [];
  for (const turn of spec.turns) {
    if (turn.role === "native") input.push(...turn.items);
    else if (turn.role === "assistant") input.push({ role: "assistant", content: turn.text });
    else if (turn.role === "tool") input.push({ type: "function_call_output", call_id: turn.id, output: turn.content });
    else {
      const images = (turn.images ?? []).map((img) => ({
        type: "input_image",
        detail: "auto",
        image_url: img.kind === "url" ? img.url : `data:${img.mediaType};base64,${img.data}`,
      }));
      input.push({ role: "user", content: [{ type: "input_text", text: turn.text }, ...images] });
    }
  }
  const body: any = { model: spec.model, input };
  if (spec.system !== undefined) body.instructions = spec.system;
  if (spec.tools) body.tools = spec.tools.map((t) => ({ type: "function", name: t.name, description: t.description, parameters: t.parameters, strict: false }));
  if (spec.toolChoice) body.tool_choice = typeof spec.toolChoice === "string" ? spec.toolChoice : { type: "function", name: spec.toolChoice.name };
  if (spec.maxTokens !== undefined) body.max_output_tokens = spec.maxTokens;
  if (spec.stop) throw new Error("the Responses API has no stop sequences");
  if (spec.schema) body.text = { format: { type: "json_schema", name: spec.schema.name, schema: spec.schema.schema, strict: true } };
  if (spec.effort || spec.summary) body.reasoning = { effort: spec.effort, summary: spec.summary };
  return body;
}

function messagesBody(spec: Spec): any {
  const messages: any[] = [];
  const push = (role: "user" | "assistant", blocks: any[]) => {
    const last = messages.at(-1);
    // consecutive tool results travel in one user turn, as Anthropic requires
    if (last && last.role === role && Array.isArray(last.content) && blocks[0]?.type === "tool_result") last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const turn of spec.turns) {
    if (turn.role === "native") messages.push(...turn.items);
    else if (turn.role === "assistant") messages.push({ role: "assistant", content: turn.text });
    else if (turn.role === "tool") push("user", [{ type: "tool_result", tool_use_id: turn.id, content: turn.content }]);
    else if (!turn.images) messages.push({ role: "user", content: turn.text });
    else {
      const images = turn.images.map((img) => ({
        type: "image",
        source: img.kind === "url" ? { type: "url", url: img.url } : { type: "base64", media_type: img.mediaType, data: img.data },
      }));
      messages.push({ role: "user", content: [{ type: "text", text: turn.text }, ...images] });
    }
  }
  const body: any = { model: spec.model, max_tokens: spec.maxTokens ?? 1000, messages };
  if (spec.system !== undefined) body.system = spec.system;
  if (spec.tools) body.tools = spec.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
  if (spec.toolChoice) {
    const c = spec.toolChoice;
    body.tool_choice = c === "auto" ? { type: "auto" } : c === "none" ? { type: "none" } : c === "required" ? { type: "any" } : { type: "tool", name: c.name };
  }
  if (spec.stop) body.stop_sequences = spec.stop;
  if (spec.schema) body.output_config = { format: { type: "json_schema", schema: spec.schema.schema } };
  if (spec.thinkingBudget !== undefined) body.thinking = { type: "enabled", budget_tokens: spec.thinkingBudget };
  return body;
}

export function buildBody(inbound: Inbound, spec: Spec): any {
  if (inbound === "chat") return chatBody(spec);
  if (inbound === "responses") return responsesBody(spec);
  return messagesBody(spec);
}

// ---------- answers ----------

function fromChat(raw: any, streamedDetails?: any[]): Answer {
  const choice = raw.choices[0];
  const message = choice.message;
  const details: any[] = streamedDetails ?? message.reasoning_details ?? [];
  const reasoning = details
    .filter((d) => d.type === "reasoning.text" || d.type === "reasoning.summary")
    .map((d) => {
      const text = d.type === "reasoning.text" ? d.text : d.summary;
      return d.signature === undefined || d.signature === null ? { text } : { text, signature: d.signature };
    });
  const u = raw.usage ?? {};
  const history: any = { role: "assistant", content: message.content ?? null };
  if (message.tool_calls) history.tool_calls = message.tool_calls;
  if (details.length > 0) history.reasoning_details = details;
  return {
    id: raw.id,
    model: raw.model,
    text: message.content ?? "",
    toolCalls: (message.tool_calls ?? []).map((c: any) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
    finish: choice.finish_reason,
    reasoning,
    usage: {
      input: u.prompt_tokens,
      output: u.completion_tokens,
      cached: u.prompt_tokens_details?.cached_tokens ?? 0,
      cacheWrite: u.prompt_tokens_details?.cache_write_tokens ?? 0,
      reasoning: u.completion_tokens_details?.reasoning_tokens ?? 0,
      cost: u.cost,
    },
    history: [history],
    raw,
  };
}

function fromResponses(raw: any): Answer {
  const text = raw.output
    .filter((i: any) => i.type === "message")
    .flatMap((i: any) => i.content)
    .filter((c: any) => c.type === "output_text")
    .map((c: any) => c.text)
    .join("");
  const reasoning = raw.output
    .filter((i: any) => i.type === "reasoning")
    .map((i: any) => {
      const t = [...(i.summary ?? []).map((s: any) => s.text), ...(i.content ?? []).map((c: any) => c.text)].join("");
      return i.encrypted_content === undefined ? { text: t } : { text: t, signature: i.encrypted_content };
    });
  const u = raw.usage ?? {};
  return {
    id: raw.id,
    model: raw.model,
    text,
    toolCalls: raw.output.filter((i: any) => i.type === "function_call").map((i: any) => ({ id: i.call_id, name: i.name, arguments: i.arguments })),
    finish: raw.status === "incomplete" ? `incomplete:${raw.incomplete_details?.reason}` : raw.status,
    reasoning,
    usage: {
      input: u.input_tokens,
      output: u.output_tokens,
      cached: u.input_tokens_details?.cached_tokens ?? 0,
      cacheWrite: u.input_tokens_details?.cache_write_tokens ?? 0,
      reasoning: u.output_tokens_details?.reasoning_tokens ?? 0,
      cost: u.cost,
    },
    history: raw.output,
    raw,
  };
}

function fromMessages(raw: any, cost?: number): Answer {
  const u = raw.usage ?? {};
  const cached = u.cache_read_input_tokens ?? 0;
  const cacheWrite = u.cache_creation_input_tokens ?? 0;
  return {
    id: raw.id,
    model: raw.model,
    text: raw.content
      .filter((b: any) => b.type === "text")
      .map((b: any) => b.text)
      .join(""),
    toolCalls: raw.content.filter((b: any) => b.type === "tool_use").map((b: any) => ({ id: b.id, name: b.name, arguments: JSON.stringify(b.input) })),
    finish: raw.stop_reason,
    stopSequence: raw.stop_sequence,
    reasoning: raw.content.filter((b: any) => b.type === "thinking").map((b: any) => ({ text: b.thinking, signature: b.signature })),
    usage: {
      input: u.input_tokens + cached + cacheWrite,
      output: u.output_tokens,
      cached,
      cacheWrite,
      reasoning: u.output_tokens_details?.thinking_tokens ?? 0,
      cost: cost ?? u.cost,
    },
    history: [{ role: "assistant", content: raw.content }],
    raw,
  };
}

/** Streamed chat reasoning: the SDK keeps only the last `reasoning_details` delta, so merge every chunk's by index. */
function collectChatReasoning(chunks: any[]): any[] {
  const byIndex = new Map<number, any>();
  for (const chunk of chunks) {
    for (const d of chunk.choices?.[0]?.delta?.reasoning_details ?? []) {
      const item = byIndex.get(d.index);
      if (!item) {
        byIndex.set(d.index, { ...d });
        continue;
      }
      for (const field of ["text", "signature", "data", "summary"]) if (typeof d[field] === "string") item[field] = (item[field] ?? "") + d[field];
    }
  }
  return [...byIndex.values()];
}

/** Sends the spec through the real SDK: `create` when not streaming, the stream helper's final object when streaming. */
export async function call(h: Harness, inbound: Inbound, stream: boolean, spec: Spec): Promise<Answer> {
  const body = buildBody(inbound, spec);
  if (inbound === "chat") {
    if (!stream) return fromChat(await h.openai.chat.completions.create(body));
    const s = h.openai.chat.completions.stream(body);
    const chunks: any[] = [];
    s.on("chunk", (c: any) => chunks.push(c));
    const final = await s.finalChatCompletion();
    const lastUsage = chunks.findLast((c) => c.usage)?.usage;
    return fromChat({ ...final, usage: lastUsage ?? final.usage }, collectChatReasoning(chunks));
  }
  if (inbound === "responses") {
    if (!stream) return fromResponses(await h.openai.responses.create(body));
    return fromResponses(await h.openai.responses.stream(body).finalResponse());
  }
  if (!stream) return fromMessages(await h.anthropic.messages.create(body));
  const s = h.anthropic.messages.stream(body);
  // the SDK copies only Anthropic's own usage fields into the final message: read our cost from the raw event
  let cost: number | undefined;
  s.on("streamEvent", (e: any) => {
    if (e.type === "message_delta") cost = e.usage?.cost;
  });
  return fromMessages(await s.finalMessage(), cost);
}

/** What the client receives for a finish, per inbound format (IR finish → wire). */
export const FINISH: Record<Inbound, Record<"stop" | "length" | "tool_calls" | "stop_sequence", string>> = {
  chat: { stop: "stop", length: "length", tool_calls: "tool_calls", stop_sequence: "stop" },
  responses: { stop: "completed", length: "incomplete:max_output_tokens", tool_calls: "completed", stop_sequence: "completed" },
  messages: { stop: "end_turn", length: "max_tokens", tool_calls: "tool_use", stop_sequence: "stop_sequence" },
};
