/**
 * OpenAI-compatible chat APIs disagree on the output cap: most take `max_tokens`, OpenAI's
 * reasoning models refuse it and want `max_completion_tokens`. The gateway sends `max_tokens`
 * and, when an endpoint refuses it by name, resends with the other field and remembers that
 * endpoint (a set bounded by the catalog's size).
 */
const wantsCompletionTokens = new Set<string>();

const REFUSAL = /max_tokens.*max_completion_tokens|max_completion_tokens.*max_tokens/s;

export function adaptMaxTokensField(endpointId: string, body: Record<string, unknown>): Record<string, unknown> {
  if (!wantsCompletionTokens.has(endpointId) || body.max_tokens === undefined) return body;
  const { max_tokens, ...rest } = body;
  return { ...rest, max_completion_tokens: max_tokens };
}

/** True (and remembered) when a 400 says this endpoint wants `max_completion_tokens` instead. */
export function refusedMaxTokens(endpointId: string, body: Record<string, unknown>, status: number, message: string): boolean {
  if (status !== 400 || body.max_tokens === undefined || !REFUSAL.test(message)) return false;
  wantsCompletionTokens.add(endpointId);
  return true;
}
