/**
 * Loose shapes of what Responses upstreams send back. Upstream bodies are untrusted, so every field
 * is unknown until a decoder has checked it.
 */

export type WireItem = {
  type?: unknown;
  id?: unknown;
  content?: unknown;
  summary?: unknown;
  encrypted_content?: unknown;
  call_id?: unknown;
  name?: unknown;
  arguments?: unknown;
};

export type WireError = { code?: unknown; message?: unknown };

export type WireResponse = {
  id?: unknown;
  model?: unknown;
  status?: unknown;
  output?: unknown;
  incomplete_details?: { reason?: unknown } | null;
  usage?: unknown;
  error?: WireError | null;
  error_type?: unknown;
};

export type WireUsage = {
  input_tokens?: unknown;
  output_tokens?: unknown;
  input_tokens_details?: { cached_tokens?: unknown; cache_write_tokens?: unknown } | null;
  output_tokens_details?: { reasoning_tokens?: unknown } | null;
  server_tool_use_details?: { web_search_requests?: unknown } | null;
};

/** One SSE event's data; which fields it has depends on its `type`. */
export type WireEvent = {
  type?: unknown;
  output_index?: unknown;
  summary_index?: unknown;
  item?: WireItem | null;
  part?: { type?: unknown } | null;
  delta?: unknown;
  text?: unknown;
  refusal?: unknown;
  arguments?: unknown;
  response?: WireResponse | null;
  /** an `error` event carries code and message at the top level, or (some servers) in `error` */
  error?: WireError | null;
  code?: unknown;
  message?: unknown;
};
