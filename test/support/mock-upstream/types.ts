import type { MockGoogleAuth } from "./google-auth.ts";

// Public types of the mock upstream. The behaviour they script is documented in
// ../mock-upstream.ts (the entry point that tests import).

export type MockToolCall = {
  /** OpenAI `call_id` / chat `tool_calls[].id` / Anthropic `tool_use.id`, sent verbatim. */
  id: string;
  name: string;
  /** string[] = argument fragments streamed in exactly this split. */
  arguments: string | string[];
  /** Gemini: the thoughtSignature on this functionCall part (Gemini sends calls whole, so the split above does not show). */
  signature?: string;
};

export type MockReasoning = {
  /** string[] = streamed chunks in exactly this split. */
  text: string | string[];
  /** Anthropic `thinking.signature` (sent as one signature_delta when streaming); Gemini's thoughtSignature,
   *  on the first function call that has none of its own, else on the last text part. */
  signature?: string;
  /** Responses `encrypted_content` on the reasoning item; Anthropic `redacted_thinking.data` block. */
  encrypted?: string;
  /** Responses only: true (default) = reasoning_summary_* events / `summary[]`;
   *  false = raw `reasoning_text` content (response.reasoning_text.* events), as open-weight models send. */
  summary?: boolean;
  /** Chat only: the delta/message field carrying reasoning. Default `reasoning_content` (DeepSeek, vLLM);
   *  `reasoning` is what OpenRouter-style upstreams send. */
  chatField?: "reasoning_content" | "reasoning";
};

export type MockUsage = {
  /** Total prompt tokens INCLUDING cached and cacheWrite (the OpenAI convention).
   *  The Anthropic renderer subtracts both to produce `input_tokens`. */
  input: number;
  output: number;
  cached?: number;
  cacheWrite?: number;
  reasoning?: number;
};

export type MockFinish = "stop" | "length" | "tool_calls" | "content_filter" | "stop_sequence";

export type MockTurn = {
  /** Upstream response id (chat `id`, Responses `id`, Anthropic message `id`). Generated when absent. */
  id?: string;
  reasoning?: MockReasoning;
  /** string[] = streamed chunks in exactly this split. */
  text?: string | string[];
  /** Chat `refusal`, Responses `refusal` content part, Anthropic text block + stop_reason "refusal". */
  refusal?: string;
  /** Parallel tool calls, in this order. */
  toolCalls?: MockToolCall[];
  /** Default: tool_calls when toolCalls are present, else stop. */
  finish?: MockFinish;
  /** Anthropic `stop_sequence` (with finish "stop_sequence"). */
  stopSequence?: string;
  usage?: MockUsage;
  /** OpenAI formats: no usage (chat: no usage chunk / field; Responses: `usage: null`).
   *  Anthropic always reports usage, so it ignores this. */
  omitUsage?: boolean;
  /** Non-2xx: an error response before the first byte (body: errorBody, else the provider's own error shape). */
  status?: number;
  errorBody?: unknown;
  /** Extra response headers (on errors too, e.g. `retry-after`). */
  headers?: Record<string, string>;
  /** Wait this long before sending the status line and headers. */
  delayMs?: number;
  /** Wait this long before each stream event after the first. */
  chunkDelayMs?: number;
  /** Streaming: after N events have been written, cut the TCP connection (no terminator, no [DONE]). */
  failAfterEvents?: number;
  /** Streaming: after N events, send the provider's in-stream error event and end the stream
   *  (chat `data: {"error":…}`, Responses `response.failed`, Anthropic `event: error`). */
  streamError?: { afterEvents: number; message?: string; type?: string };
  /** Close the socket without sending any response byte. */
  resetBeforeResponse?: boolean;
  /** Never answer, until the client aborts (or the mock stops). */
  hang?: boolean;
  /** 200 with a body that is not valid for the format. true = a canned body; a string = that exact body. */
  invalidBody?: boolean | string;
  /** Changes the rendered answer before it is sent: the JSON body, or the parsed data of each SSE
   *  event that is JSON (to add fields the gateway does not know, say). */
  alter?: (value: any) => any;
  /** /embeddings: one vector per input. Default: a small deterministic vector per input. */
  embedding?: number[][];
};

export type RecordedRequest = {
  /** Path after the host, e.g. `/v1/chat/completions`. */
  path: string;
  method: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: any;
  receivedAt: number;
  /** When the client went away before the response was complete (Date.now()). */
  abortedAt?: number;
  /** When the mock finished writing the response (or cut it), whichever way it ended. */
  closedAt?: number;
};

export interface MockUpstream {
  /** Base URL ending in /v1, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  port: number;
  /** Google's token endpoint and the access tokens Vertex AI paths (`/v1/projects/…`) require. */
  google: MockGoogleAuth;
  requests: RecordedRequest[];
  /** Respond to the next requests in order with these turns; when the queue is empty, use the handler. */
  enqueue(...turns: MockTurn[]): void;
  /** Decides the turn from the request when the queue is empty. */
  setHandler(fn: (req: RecordedRequest) => MockTurn): void;
  /** Clears the queue, the recorded requests and the handler (back to the default). */
  reset(): void;
  /** Resolves once `requests.length >= n` and the last of them is closed or aborted (polls). */
  waitForRequests(n: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  stop(): Promise<void>;
}

/** One SSE event as written on the wire. `event` becomes an `event:` line. */
export type SseEvent = { event?: string; data: string };

/** What a format renderer needs from the request. */
export type RenderContext = { body: any; model: string; created: number; seq: number };
