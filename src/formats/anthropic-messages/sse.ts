/** Anthropic clients drop events that lack an `event:` line, so both lines are always written. */
export function sseEvent(type: string, payload: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
}
