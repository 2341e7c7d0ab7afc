/**
 * Loose shapes of what upstreams send back. Upstream bodies are untrusted, so every
 * field is optional and nullable; decoders check before they use.
 */

export type WireReasoningDetail = {
  type?: string;
  text?: string | null;
  summary?: string | null;
  signature?: string | null;
  data?: string | null;
  format?: string | null;
  id?: string | null;
  index?: number;
};

export type WireToolCall = {
  id?: string | null;
  type?: string;
  function?: { name?: string | null; arguments?: string | null } | null;
};

export type WireStreamToolCall = WireToolCall & { index?: number };

export type WireUsage = {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null; cache_write_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  server_tool_use_details?: { web_search_requests?: number | null } | null;
};

export type WireMessage = {
  role?: string;
  content?: string | Array<{ type?: string; text?: string }> | null;
  refusal?: string | null;
  reasoning?: string | null;
  /** DeepSeek and vLLM spell it this way */
  reasoning_content?: string | null;
  reasoning_details?: WireReasoningDetail[] | null;
  tool_calls?: WireToolCall[] | null;
};

export type WireChoice = {
  index?: number;
  message?: WireMessage | null;
  finish_reason?: string | null;
  native_finish_reason?: string | null;
};

export type WireResult = {
  id?: string;
  model?: string;
  choices?: WireChoice[];
  usage?: WireUsage | null;
};

export type WireDelta = Omit<WireMessage, "tool_calls"> & { tool_calls?: WireStreamToolCall[] | null };

export type WireStreamChoice = {
  index?: number;
  delta?: WireDelta | null;
  finish_reason?: string | null;
  native_finish_reason?: string | null;
};

export type WireStreamChunk = {
  id?: string;
  model?: string;
  choices?: WireStreamChoice[] | null;
  usage?: WireUsage | null;
  error?: { code?: number | string | null; message?: string | null; metadata?: { error_type?: string } | null } | null;
};
