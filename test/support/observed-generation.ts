/**
 * `ObservedGeneration` and `Destination` fixtures for the sender tests: a chat generation with
 * two attempts, an embeddings one, a video one, and the same with privacy mode applied. The
 * prompt and the completion carry canary strings that a privacy test looks for in every byte sent.
 */
import type { Destination, DestinationType, ObservedGeneration } from "../../src/observability/contract";

export const PROMPT_CANARY = "canary-prompt-7f3a9c";
export const COMPLETION_CANARY = "canary-completion-51be08";
export const TOOL_CANARY = "canary-tool-2d6e41";

/** 2026-11-22T12:00:00.000Z */
export const STARTED_AT = Date.parse("2026-11-22T12:00:00.000Z");

export function chatGeneration(overrides: Partial<ObservedGeneration> = {}): ObservedGeneration {
  return {
    id: "gen-01JD3F5Q7ZK8",
    operation: "chat",
    workspaceId: "ws-1",
    keyHash: "a".repeat(64),
    keyName: "Production key",
    userId: "user-owner",
    requestedModel: "acme/alpha",
    model: "acme/alpha",
    providerSlug: "acme-cloud",
    providerName: "Acme Cloud",
    streamed: true,
    cancelled: false,
    finishReason: "stop",
    status: "success",
    errorMessage: null,
    tokens: { prompt: 120, completion: 45, cached: 20, cacheWrite: null, reasoning: 5 },
    cost: { total: 0.00042, input: 0.00012, output: 0.0003 },
    isByok: false,
    startedAt: STARTED_AT,
    endedAt: STARTED_AT + 1_500,
    timeToFirstTokenMs: 320,
    sessionId: "session-42",
    externalUser: "end-user-7",
    trace: { trace_id: "caller-trace-1", trace_name: "Support bot", generation_name: "answer", customer_tier: "gold" },
    attempts: [
      { provider: "flaky-cloud", model: "alpha-2025-01", endpoint: "flaky-cloud/alpha", status: 503, startedAt: STARTED_AT + 10, latencyMs: 200 },
      { provider: "acme-cloud", model: "alpha-2025-01", endpoint: "acme-cloud/alpha", status: 200, startedAt: STARTED_AT + 220, latencyMs: 1_270 },
    ],
    input: {
      messages: [
        { role: "system", content: "You are terse." },
        {
          role: "user",
          content: [
            { type: "text", text: `Say hi ${PROMPT_CANARY}` },
            { type: "image_url", image_url: { url: "https://img.test/x.png" } },
          ],
        },
      ],
      tools: [{ type: "function", function: { name: "lookup", description: TOOL_CANARY } }],
      parameters: { temperature: 0.2, max_tokens: 256 },
    },
    output: {
      text: `Hi ${COMPLETION_CANARY}`,
      toolCalls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: `{"q":"${COMPLETION_CANARY}"}` } }],
    },
    ...overrides,
  };
}

export function embeddingGeneration(overrides: Partial<ObservedGeneration> = {}): ObservedGeneration {
  return chatGeneration({
    id: "gen-emb-1",
    operation: "embeddings",
    model: "acme/embed",
    requestedModel: "acme/embed",
    streamed: false,
    finishReason: null,
    tokens: { prompt: 8, completion: null, cached: null, cacheWrite: null, reasoning: null },
    cost: { total: 0.000001, input: 0.000001, output: 0 },
    timeToFirstTokenMs: null,
    trace: null,
    attempts: [{ provider: "acme-cloud", model: "embed-1", endpoint: "acme-cloud/embed", status: 200, startedAt: STARTED_AT + 5, latencyMs: 90 }],
    input: { messages: [`embed me ${PROMPT_CANARY}`], tools: null, parameters: {} },
    output: null,
    ...overrides,
  });
}

export function videoGeneration(overrides: Partial<ObservedGeneration> = {}): ObservedGeneration {
  return chatGeneration({
    id: "gen-video-1",
    operation: "video",
    model: "acme/video",
    requestedModel: "acme/video",
    streamed: false,
    finishReason: null,
    tokens: { prompt: null, completion: null, cached: null, cacheWrite: null, reasoning: null },
    cost: { total: 1.2, input: 0, output: 1.2 },
    endedAt: STARTED_AT + 95_000,
    timeToFirstTokenMs: null,
    trace: { span_name: "clip pipeline" },
    attempts: [{ provider: "acme-cloud", model: "video-1", endpoint: "acme-cloud/video", status: 200, startedAt: STARTED_AT + 5, latencyMs: 94_000 }],
    input: { messages: `a cat surfing ${PROMPT_CANARY}`, tools: null, parameters: { seconds: 4 } },
    output: null,
    ...overrides,
  });
}

/** What the pipeline hands a sender of a privacy-mode destination: the content gone, everything else kept. */
export const withoutContent = (g: ObservedGeneration): ObservedGeneration => ({ ...g, input: null, output: null });

/** A failed generation: every attempt answered an error. */
export function failedGeneration(): ObservedGeneration {
  return chatGeneration({
    id: "gen-failed-1",
    status: "error",
    errorMessage: "all providers failed",
    finishReason: null,
    output: null,
    tokens: { prompt: null, completion: null, cached: null, cacheWrite: null, reasoning: null },
    cost: { total: 0, input: 0, output: 0 },
    attempts: [{ provider: "flaky-cloud", model: "alpha", endpoint: "flaky-cloud/alpha", status: 503, startedAt: STARTED_AT, latencyMs: 100 }],
  });
}

export function destinationOf(type: DestinationType, config: Record<string, unknown>, overrides: Partial<Destination> = {}): Destination {
  return {
    id: `dest-${type}-1`,
    workspaceId: "ws-1",
    type,
    name: `${type} test`,
    enabled: true,
    privacyMode: false,
    samplingRate: 1,
    apiKeyHashes: null,
    filterRules: null,
    broadcastGenerationCost: false,
    broadcastGenerationIdentity: false,
    broadcastGenerationRequestContext: false,
    config,
    ...overrides,
  };
}
