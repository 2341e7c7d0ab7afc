/**
 * A function call's id: Gemini's own when it gives one (it then wants it back on the response),
 * otherwise one made here, so that a client can pair its tool result with the call.
 */
export function toolCallId(given: unknown): string {
  return typeof given === "string" && given !== "" ? given : `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
}

/** Function call arguments as the IR keeps them: JSON text of an object. */
export function argumentsText(args: unknown): string {
  return JSON.stringify(args !== null && typeof args === "object" && !Array.isArray(args) ? args : {});
}
