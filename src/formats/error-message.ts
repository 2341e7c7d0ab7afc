/**
 * The human-readable message of an upstream's JSON error body. OpenAI-compatible servers send
 * `{error: "…"}` or `{error: {message}}`; Anthropic's `{type: "error", error: {type, message}}` is
 * the second shape too, so one parse serves every format (and the embeddings endpoint).
 */
export function upstreamErrorMessage(body: unknown): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error === "string") return error;
  if (!error || typeof error !== "object") return undefined;
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" ? message : undefined;
}
