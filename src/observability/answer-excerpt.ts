/** The start of what a destination answered, on one line, for an error message or a log line. */
export function answerExcerpt(body: Uint8Array, max = 200): string {
  const text = new TextDecoder()
    .decode(body.subarray(0, max * 4))
    .replace(/\s+/g, " ")
    .trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** `answered 401: {"error":"bad key"}`: the status and the excerpt, when there is one. */
export function answered(status: number, body: Uint8Array): string {
  const excerpt = answerExcerpt(body);
  return excerpt === "" ? `answered ${status}` : `answered ${status}: ${excerpt}`;
}
