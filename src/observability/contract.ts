/**
 * The seams between the parts of observability forwarding (issue 18), fixed before they were
 * built in parallel: the destination record the store keeps, the generation a destination is sent,
 * and what every sender (one per destination type) provides.
 */

/** The 17 destination types of OpenRouter's Broadcast (the `type` of its observability destinations API). */
export const DESTINATION_TYPES = [
  "arize",
  "braintrust",
  "clickhouse",
  "datadog",
  "grafana",
  "langfuse",
  "langsmith",
  "newrelic",
  "opik",
  "otel-collector",
  "posthog",
  "ramp",
  "s3",
  "sentry",
  "snowflake",
  "weave",
  "webhook",
] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

export type FilterRule = { field: string; operator: string; value?: string | number };
export type FilterGroup = { logic?: "and" | "or"; rules: FilterRule[] };
export type FilterRules = { enabled?: boolean; groups: FilterGroup[] };

/** A destination as the pipeline and senders see it: config opened (secrets in clear), never returned by the API like this. */
export type Destination = Readonly<{
  id: string;
  workspaceId: string;
  type: DestinationType;
  name: string;
  enabled: boolean;
  privacyMode: boolean;
  samplingRate: number;
  /** null: every key of the workspace */
  apiKeyHashes: readonly string[] | null;
  filterRules: FilterRules | null;
  broadcastGenerationCost: boolean;
  broadcastGenerationIdentity: boolean;
  broadcastGenerationRequestContext: boolean;
  /** validated and with the type's defaults applied; `headers` is the user's extra headers */
  config: Readonly<Record<string, unknown>> & { headers?: Readonly<Record<string, string>> };
}>;

/** Where the enabled destinations of a workspace come from (the store, behind a cache). */
export type DestinationReader = {
  enabledForWorkspace(workspaceId: string): Promise<readonly Destination[]>;
  /** a delivery job reads its destination afresh: it may have been disabled, edited or deleted since */
  byId(id: string): Promise<Destination | null>;
};

/** The sender of each type; `src/observability/senders.ts` builds it from the OTLP and native senders. */
export type SenderRegistry = (type: DestinationType) => DestinationSender;

/** One upstream attempt of a generation: a child span of its trace. */
export type ObservedAttempt = Readonly<{
  provider: string;
  model: string;
  endpoint: string;
  status: number;
  startedAt: number;
  latencyMs: number;
}>;

/**
 * One finished generation as it is forwarded: what the store recorded plus its content.
 * `input` and `output` are null when privacy mode removed them (or nothing was kept).
 */
export type ObservedGeneration = Readonly<{
  id: string;
  /** "chat" | "responses" | "messages" | "embeddings" | "video", and the media ones by api_type: "image" | "tts" | "stt" | "rerank" */
  operation: string;
  workspaceId: string;
  keyHash: string;
  keyName: string | null;
  userId: string | null;
  requestedModel: string | null;
  model: string;
  providerSlug: string | null;
  providerName: string | null;
  streamed: boolean;
  cancelled: boolean;
  finishReason: string | null;
  status: "success" | "error" | "cancelled";
  errorMessage: string | null;
  tokens: Readonly<{ prompt: number | null; completion: number | null; cached: number | null; cacheWrite: number | null; reasoning: number | null }>;
  /** USD */
  cost: Readonly<{ total: number; input: number; output: number }>;
  isByok: boolean;
  startedAt: number;
  endedAt: number;
  timeToFirstTokenMs: number | null;
  sessionId: string | null;
  externalUser: string | null;
  /** the request's `trace` object as sent (trace_id, parent_span_id, trace_name, span_name, generation_name, others) */
  trace: Readonly<Record<string, unknown>> | null;
  attempts: readonly ObservedAttempt[];
  /** request messages in the inbound format's JSON, tools offered; null when not forwarded */
  input: Readonly<{ messages: unknown; tools: unknown | null; parameters: Readonly<Record<string, unknown>> }> | null;
  /** the completion text and tool calls; null when not forwarded */
  output: Readonly<{ text: string; toolCalls: readonly unknown[] }> | null;
}>;

/** What sending one generation (or a probe) came to, classified by the type's own rules. */
export type SendOutcome =
  | { kind: "delivered" }
  /** 429, 5xx the type retries, dropped connection: try again, after `afterSeconds` when the destination said so */
  | { kind: "retry"; reason: string; afterSeconds?: number }
  /** 400, auth, partial success, a refused URL: never retried */
  | { kind: "failed"; reason: string };

export type ProbeResult = { ok: true } | { ok: false; message: string };

/** HTTP for senders: the guarded outbound client (src/outbound) with the operator's URL policy applied. */
export type SenderHttp = (request: {
  url: string;
  method: "GET" | "POST" | "PUT";
  headers: Record<string, string>;
  body?: string;
}) => Promise<
  | { kind: "response"; status: number; headers: Headers; body: Uint8Array }
  | { kind: "refused"; reason: string }
  | { kind: "failed"; reason: string; timedOut: boolean }
>;

/** What a sender's request came to: the destination's answer, a URL the policy refused, or no answer. */
export type HttpResult = Awaited<ReturnType<SenderHttp>>;

export const DELIVERED: SendOutcome = Object.freeze({ kind: "delivered" });

export type SenderDeps = { http: SenderHttp; clock: () => number; allowPrivateUrls: boolean };

/** What a config key is: required or not, its default, and whether it is a secret (sealed, masked). */
export type ConfigKeySpec = Readonly<{
  key: string;
  required: boolean;
  default?: string;
  secret?: boolean;
  /** checked as an outbound URL at save time */
  url?: boolean;
  /** allowed values or a pattern, for the 400's message */
  oneOf?: readonly string[];
  pattern?: RegExp;
}>;

/** One destination type: its config keys, its connection test, and how it sends one generation. */
export type DestinationSender = Readonly<{
  type: DestinationType;
  configKeys: readonly ConfigKeySpec[];
  probe(destination: Destination, deps: SenderDeps): Promise<ProbeResult>;
  send(generation: ObservedGeneration, destination: Destination, deps: SenderDeps): Promise<SendOutcome>;
  /**
   * Sends several generations in as few requests as the type's wire format allows (the first
   * attempts of a drain) and answers each one's outcome, in order; a type without it is sent one
   * generation a request.
   */
  sendMany?(generations: readonly ObservedGeneration[], destination: Destination, deps: SenderDeps): Promise<readonly SendOutcome[]>;
}>;
