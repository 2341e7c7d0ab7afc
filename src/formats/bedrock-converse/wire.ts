/**
 * Loose shapes of what Amazon Bedrock's Converse and ConverseStream answer
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html). Upstream
 * bodies are untrusted: decoders check a field before they use it. Binary fields (image bytes,
 * redacted reasoning) travel as base64 text in the JSON.
 */

/** Usage as Bedrock reports it: `inputTokens` EXCLUDES cache reads and writes. */
export type WireUsage = {
  inputTokens?: number | null;
  outputTokens?: number | null;
  totalTokens?: number | null;
  cacheReadInputTokens?: number | null;
  cacheWriteInputTokens?: number | null;
};

export type WireReasoning = {
  reasoningText?: { text?: string; signature?: string };
  redactedContent?: string;
};

export type WireContentBlock = {
  text?: string;
  toolUse?: { toolUseId?: string; name?: string; input?: unknown };
  reasoningContent?: WireReasoning;
};

/** The Converse answer. It carries no id and no model name: the gateway's own stand in for them. */
export type WireConverseResult = {
  output?: { message?: { role?: string; content?: WireContentBlock[] } };
  stopReason?: string;
  usage?: WireUsage;
  additionalModelResponseFields?: unknown;
};

/** A ConverseStream delta: exactly one member is set. */
export type WireDelta = {
  text?: string;
  toolUse?: { input?: string };
  reasoningContent?: { text?: string; signature?: string; redactedContent?: string };
};

/** One ConverseStream event's payload, by its `:event-type` header. */
export type WireStreamEvent = {
  role?: string;
  contentBlockIndex?: number;
  start?: { toolUse?: { toolUseId?: string; name?: string } };
  delta?: WireDelta;
  stopReason?: string;
  additionalModelResponseFields?: unknown;
  usage?: WireUsage;
  message?: string;
  Message?: string;
};
