import type { ObservedGeneration } from "../contract";

/**
 * Privacy mode: the prompt (messages, tools, parameters) and the completion are removed; tokens,
 * cost, timing, model, provider, trace metadata and user and session ids still go out.
 */
export function withoutContent(g: ObservedGeneration): ObservedGeneration {
  return g.input === null && g.output === null ? g : { ...g, input: null, output: null };
}
