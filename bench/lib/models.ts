// Model ids shared by the gateway child (gateway.yaml) and the load generator.
export const SAME_FORMAT_MODEL = "bench/chat";
export const TRANSLATED_MODEL = "bench/translated";
/** chat in, an azure-openai upstream (the same mock, at its Azure deployment path) */
export const AZURE_MODEL = "bench/azure";
/** translated to Bedrock's Converse, each call SigV4-signed (and the signature checked by the mock) */
export const BEDROCK_MODEL = "bench/bedrock";
/** Translated to Google's generateContent (the gemini API) */
export const GEMINI_MODEL = "bench/gemini";
/** What the mock sees as `model` when called directly or through the floor proxy. */
export const UPSTREAM_MODEL = "m-chat";

/** The bench's chat request: a short prompt, room for the whole ~1 KB answer, usage in streams. */
export function chatBody(model: string, stream: boolean): string {
  const body: Record<string, unknown> = { model, messages: [{ role: "user", content: "Say hello." }], max_tokens: 512 };
  if (stream) Object.assign(body, { stream: true, stream_options: { include_usage: true } });
  return JSON.stringify(body);
}

/** A chat request (as chatBody, json) with a prompt never asked before: each call makes a new one (a response-cache miss). */
export function newPromptBody(label: string): () => string {
  let asked = 0;
  return () => JSON.stringify({ model: SAME_FORMAT_MODEL, messages: [{ role: "user", content: `Say hello (${label} ${++asked}).` }], max_tokens: 512 });
}
