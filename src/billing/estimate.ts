import type { IRMessage, IRRequest } from "../ir/types";

/** Rough prompt size for routing and reservations: about 4 characters a token, images at a flat rate. */
const CHARS_PER_TOKEN = 4;
export const TOKENS_PER_IMAGE = 1_000;
const TOKENS_PER_FILE = 2_000;

function messageChars(m: IRMessage): number {
  let chars = 8;
  if (m.role === "tool") {
    if (typeof m.content === "string") chars += m.content.length;
    else for (const p of m.content) if (p.type === "text") chars += p.text.length;
    return chars;
  }
  for (const p of m.content) {
    switch (p.type) {
      case "text":
        chars += p.text.length;
        break;
      case "reasoning":
        chars += p.text.length;
        break;
      case "tool_call":
        chars += p.name.length + p.arguments.length;
        break;
      case "refusal":
        chars += p.refusal.length;
        break;
    }
  }
  return chars;
}

/** Images and files at their flat rates, in user messages and tool results alike. */
export function mediaTokens(ir: Pick<IRRequest, "messages">): number {
  let tokens = 0;
  for (const m of ir.messages) {
    if ((m.role !== "user" && m.role !== "tool") || typeof m.content === "string") continue;
    for (const p of m.content) tokens += p.type === "image" ? TOKENS_PER_IMAGE : p.type === "file" ? TOKENS_PER_FILE : 0;
  }
  return tokens;
}

export function estimatePromptTokens(ir: Pick<IRRequest, "messages" | "tools">): number {
  let chars = 0;
  for (const m of ir.messages) chars += messageChars(m);
  for (const t of ir.tools ?? []) chars += t.name.length + (t.description?.length ?? 0) + JSON.stringify(t.parameters ?? {}).length;
  return Math.ceil(chars / CHARS_PER_TOKEN) + mediaTokens(ir);
}

/** The input modalities a request needs from a model. */
export function requiredModalities(ir: Pick<IRRequest, "messages">): Set<string> {
  const need = new Set<string>(["text"]);
  for (const m of ir.messages) {
    if (m.role !== "user") continue;
    for (const p of m.content)
      if (p.type === "image") need.add("image");
      else if (p.type === "file") need.add("file");
  }
  return need;
}

/**
 * An upper bound on prompt tokens for reservations: BPE tokens cover at least one byte each,
 * so UTF-8 bytes plus a per-message allowance never undercount.
 */
export function promptTokensUpperBound(ir: Pick<IRRequest, "messages" | "tools">): number {
  let tokens = 0;
  const bytes = (s: string) => Buffer.byteLength(s, "utf8");
  for (const m of ir.messages) {
    tokens += 8;
    if (m.role === "tool") {
      tokens +=
        typeof m.content === "string" ? bytes(m.content) : m.content.reduce((n, p) => n + (p.type === "text" ? bytes(p.text) : TOKENS_PER_IMAGE * 2), 0);
      continue;
    }
    for (const p of m.content) {
      if (p.type === "text") tokens += bytes(p.text);
      else if (p.type === "image") tokens += TOKENS_PER_IMAGE * 2;
      else if (p.type === "file") tokens += p.data ? bytes(p.data) : TOKENS_PER_FILE * 4;
      else if (p.type === "reasoning") tokens += bytes(p.text);
      else if (p.type === "tool_call") tokens += bytes(p.name) + bytes(p.arguments);
      else tokens += bytes(p.refusal);
    }
  }
  for (const t of ir.tools ?? []) tokens += bytes(t.name) + bytes(t.description ?? "") + bytes(JSON.stringify(t.parameters ?? {}));
  return tokens;
}

/** Number of input images, for per-image prices. */
export function countImages(ir: Pick<IRRequest, "messages">): number {
  let n = 0;
  for (const m of ir.messages) if (m.role === "user") for (const p of m.content) if (p.type === "image") n++;
  return n;
}

/** All prompt text, for counting tokens when the upstream reports no usage. */
export function promptText(ir: Pick<IRRequest, "messages">): string {
  const parts: string[] = [];
  for (const m of ir.messages) {
    if (m.role === "tool") parts.push(typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : "")).join(""));
    else for (const p of m.content) parts.push(p.type === "text" || p.type === "reasoning" ? p.text : p.type === "tool_call" ? p.arguments : "");
  }
  // an image or a file has no text: it adds no empty line
  return parts.filter((part) => part !== "").join("\n");
}
