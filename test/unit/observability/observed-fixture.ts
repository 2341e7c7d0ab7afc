import type { Destination, ObservedGeneration } from "../../../src/observability/contract";
import { destinationOf } from "../../support/observed-generation";

/** A whole generation with content, every field set; tests override what they look at. */
export function observed(over: Partial<ObservedGeneration> = {}): ObservedGeneration {
  return {
    id: "gen-1",
    operation: "chat",
    workspaceId: "ws-1",
    keyHash: "hash-a",
    keyName: "Prod Key",
    userId: "user-1",
    requestedModel: "openai/gpt-4o",
    model: "openai/gpt-4o",
    providerSlug: "openai",
    providerName: "OpenAI",
    streamed: false,
    cancelled: false,
    finishReason: "stop",
    status: "success",
    errorMessage: null,
    tokens: { prompt: 100, completion: 20, cached: 0, cacheWrite: 0, reasoning: 0 },
    cost: { total: 0.0025, input: 0.002, output: 0.0005 },
    isByok: false,
    startedAt: 1_700_000_000_000,
    endedAt: 1_700_000_001_000,
    timeToFirstTokenMs: null,
    sessionId: "sess-1",
    externalUser: "end-user-7",
    trace: null,
    attempts: [],
    input: {
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "What is 2+2?" }] },
      ],
      tools: null,
      parameters: { temperature: 0 },
    },
    output: { text: "4", toolCalls: [] },
    ...over,
  };
}

export function destination(over: Partial<Destination> = {}): Destination {
  return destinationOf("webhook", { url: "https://example.test/hook" }, { id: "00000000-0000-4000-8000-000000000001", name: "hook", ...over });
}
