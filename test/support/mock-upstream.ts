/**
 * Scriptable mock upstream model provider for end-to-end tests and benchmarks.
 *
 * A real HTTP server on 127.0.0.1 (port 0 unless given) speaking, byte for byte
 * like the real providers, the formats the gateway calls upstream:
 *   POST <url>/chat/completions  OpenAI Chat Completions (JSON, or SSE when body.stream)
 *   POST <url>/responses         OpenAI Responses (JSON, or SSE with `event:` lines and sequence_number)
 *   POST <url>/messages          Anthropic Messages (JSON, or SSE with `event:` lines)
 *   POST <url>/embeddings        OpenAI embeddings (float arrays, or base64 float32 when
 *                                `encoding_format: "base64"`, which the openai SDK sends by default)
 *   POST <origin>/openai/deployments/<d>/chat/completions?api-version=…  and …/embeddings:
 *                                Azure OpenAI (./mock-upstream/render-azure.ts): Chat Completions with
 *                                Azure's sorted keys, content-filter results and opening filter chunk,
 *                                its error bodies; no api-version is 404 and no api-key is 401, taking no turn
 *   POST <url>/model/{id}/converse, /converse-stream
 *                                Amazon Bedrock Converse (JSON, or the binary event stream); every call's
 *                                SigV4 signature or Bedrock API key is checked first (bedrock-auth.ts:
 *                                403 in Bedrock's shape, no turn taken)
 *   POST …/models/{m}:generateContent | :streamGenerateContent?alt=sse
 *                                Gemini (the Gemini API under /v1beta or the gateway's base URL, and
 *                                Vertex AI's …/projects/{p}/locations/{l}/publishers/google/…); the
 *                                model and the stream switch come from the path
 *   POST …/publishers/anthropic/models/{m}:rawPredict | :streamRawPredict
 *                                Claude on Vertex AI: Anthropic Messages, the model from the path
 *   POST <origin>/token          Google's OAuth token endpoint (`up.google`): checks the RS256
 *                                signature of a service account's JWT grant with the public key
 *                                `trust`ed for it, counts requests, hands out access tokens; every
 *                                /v1/projects/… path answers 401 to any other bearer token
 *   GET  <url>/images/pixel.png  a 1x1 PNG (image URLs fetched for APIs that take images inline)
 * `url` ends in /v1 (an Azure base_url is the origin, `http://127.0.0.1:<port>`). Any other path gets a
 * 404 in OpenAI's error shape.
 *
 *   const up = await startMockUpstream();
 *   up.enqueue({ text: ["Hel", "lo"], usage: { input: 12, output: 2, cached: 4 } });
 *   ... point a provider base_url at up.url ...
 *   expect(up.requests[0]!.body.model).toBe("alpha");
 *   await up.stop();
 *
 * Turns: each request takes the next enqueued MockTurn; with an empty queue the
 * handler decides (setHandler), by default `{ text: "Hello from mock", usage: {input: 10, output: 5} }`.
 * One turn renders in whichever format the request path asks for, so the same
 * script serves every codec. Fields (see ./mock-upstream/types.ts):
 * - text / reasoning.text / toolCalls[].arguments: a string[] is streamed in exactly that split.
 * - reasoning: chat `reasoning_content` (or `reasoning`, via reasoning.chatField); Responses
 *   reasoning item with summary_text (or raw reasoning_text when summary: false) and
 *   `encrypted_content`; Anthropic thinking block + signature_delta, and a redacted_thinking
 *   block for `encrypted`; Gemini `thought: true` parts, the signature as thoughtSignature on the
 *   first function call without its own (toolCalls[].signature), else on the last text part.
 * - usage.input counts ALL prompt tokens (cached and cacheWrite included). Chat reports
 *   prompt_tokens_details.cached_tokens (and cache_write_tokens only when cacheWrite is set: it is
 *   optional there); Responses input_tokens_details.{cached_tokens, cache_write_tokens}; Anthropic
 *   input_tokens = input - cached - cacheWrite with cache_read/cache_creation_input_tokens
 *   (and cache_creation.ephemeral_5m_input_tokens = cacheWrite). Gemini promptTokenCount = input,
 *   candidatesTokenCount = output - reasoning, thoughtsTokenCount, cachedContentTokenCount (no cache writes).
 * - Chat streams carry a usage chunk (`choices: []`, before [DONE]) only when the request had
 *   stream_options.include_usage, as OpenAI does. omitUsage drops usage in the OpenAI formats.
 * - finish maps per format: length -> "length" / response.incomplete (max_output_tokens) /
 *   "max_tokens"; stop_sequence -> "stop" / completed / "stop_sequence" + stopSequence;
 *   content_filter -> "content_filter" / incomplete (content_filter) / "refusal".
 *
 * Failure modes:
 * - status >= 400: error before the first byte, body = errorBody or the provider's error shape
 *   (OpenAI {error:{message,type,param,code}}, Anthropic {type:"error",error:{type,message}}).
 *   headers are added to any response (e.g. { "retry-after": "1" }).
 * - delayMs: before the headers. chunkDelayMs: between stream events.
 * - failAfterEvents: N events, then the TCP connection is cut with no chunked terminator
 *   (clients see ECONNRESET / a read error, never a clean end).
 * - streamError: N events, then the provider's in-stream error event, then a clean end.
 * - resetBeforeResponse: the socket closes before any byte (fetch fails with ECONNRESET).
 *   SDK clients retry connection errors: use maxRetries: 0, or each retry takes another turn.
 * - hang: no answer until the client aborts. invalidBody: 200 with a body no decoder accepts.
 *
 * Recording: requests[] holds path, method, lower-cased headers, parsed body, receivedAt, and
 * closedAt (response finished or cut by the mock) or abortedAt (client went away first, seen
 * through request.signal and the stream's cancel()). waitForRequests(n) waits until the n-th
 * request has one of them.
 */
export { DEFAULT_TEXT, PIXEL_PNG_BASE64, startMockUpstream } from "./mock-upstream/server.ts";
export { encodeSse } from "./mock-upstream/sse-stream.ts";
export type {
  MockFinish,
  MockReasoning,
  MockToolCall,
  MockTurn,
  MockUpstream,
  MockUsage,
  RecordedRequest,
  SseEvent,
} from "./mock-upstream/types.ts";
