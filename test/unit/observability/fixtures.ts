/** A finished generation and destinations as the pipeline hands them to senders, for sender tests. */
import type { Destination, DestinationType, ObservedGeneration } from "../../../src/observability/contract";
import { destinationOf as supportDestinationOf } from "../../support/observed-generation";

export const T0 = Date.parse("2026-06-01T12:00:00.000Z");

export function observedGeneration(extra: Partial<ObservedGeneration> = {}): ObservedGeneration {
  return {
    id: "gen-1a2b3c",
    operation: "chat",
    workspaceId: "ws-1",
    keyHash: "k".repeat(64),
    keyName: "prod key",
    userId: "user-1",
    requestedModel: "acme/chat",
    model: "acme/chat",
    providerSlug: "mock",
    providerName: "Mock Cloud",
    streamed: true,
    cancelled: false,
    finishReason: "stop",
    status: "success",
    errorMessage: null,
    tokens: { prompt: 120, completion: 30, cached: 20, cacheWrite: null, reasoning: 5 },
    cost: { total: 0.00018, input: 0.00012, output: 0.00006 },
    isByok: false,
    startedAt: T0,
    endedAt: T0 + 1500,
    timeToFirstTokenMs: 250,
    sessionId: "sess-9",
    externalUser: "end-user-7",
    trace: null,
    attempts: [
      { provider: "flaky", model: "up-chat", endpoint: "flaky/up-chat", status: 503, startedAt: T0 + 10, latencyMs: 90 },
      { provider: "mock", model: "up-chat", endpoint: "mock/up-chat", status: 200, startedAt: T0 + 110, latencyMs: 1380 },
    ],
    input: {
      messages: [
        { role: "system", content: "Be brief." },
        {
          role: "user",
          content: [
            { type: "text", text: "What is 2+2?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
          ],
        },
      ],
      tools: [{ type: "function", function: { name: "calc", parameters: { type: "object" } } }],
      parameters: { temperature: 0.2, max_tokens: 64, stop: ["END"] },
    },
    output: { text: "4", toolCalls: [] },
    ...extra,
  };
}

/** support's destinationOf, with this folder's id and name. */
export function destinationOf(type: DestinationType, config: Destination["config"], extra: Partial<Destination> = {}): Destination {
  return supportDestinationOf(type, config, { id: `dest-${type}`, name: `${type} destination`, ...extra });
}
