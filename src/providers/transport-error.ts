/**
 * What a failed upstream connection says, for the client and the log: the runtime's own
 * message without its debugging hints (Bun appends "For more information, pass `verbose: true`
 * in the second argument to fetch()", advice about the gateway's code, not the client's request).
 */
const RUNTIME_HINT = /\s*For more information, pass `verbose: true` in the second argument to fetch\(\)\.?/g;

export function transportErrorMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(RUNTIME_HINT, "").trim() || "connection error";
}
