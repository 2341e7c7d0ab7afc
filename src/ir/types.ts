/**
 * The gateway's own intermediate representation. Every inbound format decodes
 * into these types and every upstream format encodes from them, so adding a
 * format is one codec rather than one per pair.
 *
 * Conventions that every codec relies on:
 * - `IRUsage.inputTokens` INCLUDES cached reads and cache writes (OpenAI's
 *   convention). Anthropic codecs add `cache_read_input_tokens` and
 *   `cache_creation_input_tokens` on decode and subtract them on encode.
 * - `IRUsage.outputTokens` INCLUDES reasoning tokens.
 * - Tool-call arguments are always a JSON string (possibly partial in streams).
 */

/** Which kind of upstream produced an opaque reasoning signature / payload. Only
 * sent back to the same kind (a signature from Anthropic means nothing to OpenAI).
 * `gemini`: a Gemini thought signature (Google's generateContent, on AI Studio or Vertex). */
export type ReasoningOrigin = "anthropic-messages" | "openai-responses" | "openai-chat" | "bedrock" | "gemini" | "unknown";

export type CacheControl = { type: "ephemeral"; ttl?: "5m" | "1h" };

export type IRTextPart = { type: "text"; text: string; cacheControl?: CacheControl };

export type IRImageSource = { kind: "url"; url: string } | { kind: "base64"; mediaType: string; data: string };

export type IRImagePart = {
  type: "image";
  source: IRImageSource;
  detail?: "auto" | "low" | "high";
  cacheControl?: CacheControl;
};

/** A file / document input (PDF etc.). `data` is base64 without a data: prefix. */
export type IRFilePart = {
  type: "file";
  filename?: string;
  mediaType?: string;
  data?: string;
  url?: string;
  cacheControl?: CacheControl;
};

export type IRUserPart = IRTextPart | IRImagePart | IRFilePart;

/**
 * Reasoning produced by a model. `text` is the visible (or summarised) thinking;
 * `signature` is Anthropic's thinking signature; `encrypted` is an opaque payload
 * (Anthropic `redacted_thinking.data`, OpenAI `reasoning.encrypted_content`).
 * `id` is the upstream reasoning item id (OpenAI Responses `rs_...`).
 */
export type IRReasoningPart = {
  type: "reasoning";
  text: string;
  /** true when `text` is a summary (OpenAI Responses summary_text) rather than raw thinking */
  summary?: boolean;
  signature?: string;
  encrypted?: string;
  /** Anthropic redacted_thinking block: no text, `encrypted` holds `data` */
  redacted?: boolean;
  id?: string;
  origin: ReasoningOrigin;
};

export type IRToolCallPart = {
  type: "tool_call";
  id: string;
  name: string;
  /** JSON text of the arguments, exactly as produced by the model */
  arguments: string;
};

export type IRRefusalPart = { type: "refusal"; refusal: string };

export type IRAssistantPart = IRTextPart | IRReasoningPart | IRToolCallPart | IRRefusalPart;

export type IRToolResultContent = string | Array<IRTextPart | IRImagePart>;

export type IRMessage =
  | { role: "system"; content: IRTextPart[] }
  | { role: "user"; content: IRUserPart[]; name?: string }
  | { role: "assistant"; content: IRAssistantPart[]; name?: string }
  | { role: "tool"; toolCallId: string; content: IRToolResultContent; isError?: boolean };

export type IRTool = {
  type: "function";
  name: string;
  description?: string;
  /** JSON schema of the arguments */
  parameters?: Record<string, unknown>;
  strict?: boolean;
  /** Anthropic `eager_input_streaming`: stream this tool's input unbuffered (other formats have no such switch) */
  eagerInputStreaming?: boolean;
  cacheControl?: CacheControl;
};

export type IRToolChoice = { type: "auto" } | { type: "none" } | { type: "required" } | { type: "tool"; name: string };

export type IRResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | { type: "json_schema"; name: string; schema: Record<string, unknown>; description?: string; strict?: boolean };

export type ReasoningEffort = "max" | "xhigh" | "high" | "medium" | "low" | "minimal" | "none";

export type IRReasoningConfig = {
  /** false = explicitly disabled (Anthropic thinking disabled, effort none) */
  enabled?: boolean;
  effort?: ReasoningEffort;
  /** token budget (Anthropic budget_tokens / OpenRouter reasoning.max_tokens) */
  maxTokens?: number;
  summary?: "auto" | "concise" | "detailed";
};

export type IRRequest = {
  /** model as the client named it (may be absent: workspace default applies) */
  model?: string;
  /** fallback models, in order */
  models?: string[];
  messages: IRMessage[];
  stream: boolean;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  repetitionPenalty?: number;
  minP?: number;
  topA?: number;
  seed?: number;
  stop?: string[];
  logitBias?: Record<string, number>;
  logprobs?: boolean;
  topLogprobs?: number;
  tools?: IRTool[];
  toolChoice?: IRToolChoice;
  parallelToolCalls?: boolean;
  responseFormat?: IRResponseFormat;
  reasoning?: IRReasoningConfig;
  serviceTier?: string;
  user?: string;
  sessionId?: string;
  metadata?: Record<string, string>;
  /** routing preferences, validated by the inbound schema (ProviderPreferences) */
  provider?: Record<string, unknown>;
  trace?: Record<string, unknown>;
  plugins?: Array<Record<string, unknown>>;
  /** preset slug referenced by `preset` field */
  preset?: string;
  promptCacheKey?: string;
  cacheControl?: CacheControl;
  /** names of the request parameters the client actually sent (for require_parameters) */
  sentParameters: string[];
  /**
   * Responses API `instructions` as sent, for echoing in its result (they also travel as the
   * leading system message; other formats ignore this field)
   */
  instructions?: string;
  /** Responses API: false when the gateway keeps nothing of this answer (`store`; absent: kept), echoed in its result */
  store?: boolean;
  /** Responses API: the stored response this request continues, echoed in its result */
  previousResponseId?: string;
};

export type IRFinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "error" | "refusal";

/** Tokens only: what the request cost in money is a `Settlement` (ir/settlement.ts), passed beside it. */
export type IRUsage = {
  /** prompt tokens including cached reads and cache writes */
  inputTokens: number;
  /** completion tokens including reasoning */
  outputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  /** split of cacheWriteTokens by TTL when the upstream reports it */
  cacheWrite5mTokens?: number;
  cacheWrite1hTokens?: number;
  reasoningTokens: number;
  webSearchRequests?: number;
};

export type IRResult = {
  /** upstream response id */
  id: string;
  model: string;
  content: IRAssistantPart[];
  finishReason: IRFinishReason;
  /** the stop sequence that ended generation, when the upstream says which */
  stopSequence?: string | null;
  /** the upstream's own finish reason string */
  nativeFinishReason?: string | null;
  usage: IRUsage;
};

/** Block kinds that open with `block-start` in a stream. */
export type IRStreamBlock =
  | { type: "text" }
  | { type: "reasoning"; origin: ReasoningOrigin; id?: string; summary?: boolean; redacted?: boolean; encrypted?: string }
  | { type: "tool_call"; id: string; name: string }
  | { type: "refusal" };

/**
 * Stream parts. Decoders guarantee: every block is opened with `block-start`
 * before its deltas and closed with `block-end`; at most one block is open at a
 * time; indexes count up from 0 in order of opening; `finish` comes last
 * (or `error`). `usage` may arrive several times (later values win field by field).
 */
export type IRStreamPart =
  | { type: "start"; id: string; model: string; usage?: Partial<IRUsage> }
  | { type: "block-start"; index: number; block: IRStreamBlock }
  | { type: "text-delta"; index: number; text: string }
  | { type: "refusal-delta"; index: number; text: string }
  | { type: "reasoning-delta"; index: number; text: string }
  | { type: "reasoning-signature"; index: number; signature: string }
  | { type: "reasoning-encrypted"; index: number; data: string }
  | { type: "tool-args-delta"; index: number; delta: string }
  | { type: "block-end"; index: number }
  | { type: "usage"; usage: Partial<IRUsage> }
  | IRFinishPart
  | { type: "error"; status: number; message: string; errorType?: string };

export type IRFinishPart = { type: "finish"; finishReason: IRFinishReason; stopSequence?: string | null; nativeFinishReason?: string | null; usage: IRUsage };

export const emptyUsage = (): IRUsage => ({
  inputTokens: 0,
  outputTokens: 0,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
});
