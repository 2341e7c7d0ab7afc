/**
 * Loose shapes of what Anthropic upstreams send back. Upstream bodies are untrusted, so decoders
 * check a field before they use it.
 */

/** Usage as Anthropic reports it. Counters may be null or absent (stream deltas carry only what changed). */
export type WireUsage = {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation?: { ephemeral_5m_input_tokens?: number; ephemeral_1h_input_tokens?: number } | null;
  server_tool_use?: { web_search_requests?: number; web_fetch_requests?: number } | null;
  output_tokens_details?: { thinking_tokens?: number } | null;
};

export type WireBlock = {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  data?: string;
  id?: string;
  name?: string;
  input?: unknown;
};

/** A non-streaming MessagesResult. */
export type WireMessage = {
  id?: string;
  model?: string;
  content?: WireBlock[];
  stop_reason?: string | null;
  stop_sequence?: string | null;
  usage?: WireUsage;
};

export type WireDelta = { type: string; text?: string; partial_json?: string; thinking?: string; signature?: string };

/** One SSE event's data. */
export type WireEvent = {
  type: string;
  index?: number;
  message?: { id?: string; model?: string; usage?: WireUsage };
  content_block?: WireBlock;
  delta?: WireDelta & { stop_reason?: string | null; stop_sequence?: string | null };
  usage?: WireUsage;
  error?: { type?: string; message?: string };
};
