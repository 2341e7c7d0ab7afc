/**
 * Loose shapes of what Google's generateContent answers (Gemini API on AI Studio, and Vertex AI's
 * publishers/google models): https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse.
 * Upstream bodies are untrusted, so decoders check a field before they use it.
 */

export type WirePart = {
  text?: string;
  /** true: the text is the model's thinking (a thought summary when includeThoughts is on) */
  thought?: boolean;
  /** opaque, base64; must come back on the same part next turn (https://ai.google.dev/gemini-api/docs/thought-signatures) */
  thoughtSignature?: string;
  functionCall?: { id?: string; name?: string; args?: unknown };
  inlineData?: { mimeType?: string; data?: string };
};

/** https://ai.google.dev/api/generate-content#UsageMetadata: promptTokenCount includes the cached tokens; candidatesTokenCount excludes thoughts. */
export type WireUsage = {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
  toolUsePromptTokenCount?: number;
  totalTokenCount?: number;
};

export type WireCandidate = {
  content?: { role?: string; parts?: WirePart[] };
  finishReason?: string;
  finishMessage?: string;
  index?: number;
};

/** A whole answer, or one event of a stream (`alt=sse`: each event is a GenerateContentResponse holding what is new). */
export type WireResponse = {
  candidates?: WireCandidate[];
  usageMetadata?: WireUsage;
  modelVersion?: string;
  responseId?: string;
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string };
  /** an error sent in place of a stream event */
  error?: WireError;
};

/** https://cloud.google.com/apis/design/errors: `{error: {code, message, status, details}}`. */
export type WireError = {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<{ "@type"?: string; reason?: string }>;
};
