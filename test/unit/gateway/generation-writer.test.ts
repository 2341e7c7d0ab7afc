import { expect, test } from "bun:test";
import { GenerationWriter } from "../../../src/gateway/generation-writer";
import { createSqliteStore } from "../../../src/store/sqlite";
import { silentLogger } from "../../../src/logger";
import type { GenerationRecord } from "../../../src/store/store";
import { keySpend } from "../../../src/billing/key-figures";

const now = Date.parse("2026-11-22T12:00:00Z");

const record = (id: string, costNanos: number): GenerationRecord => ({
  id, keyHash: "k", workspaceId: "w", userId: null, apiType: "completions", requestedModel: "a/m", model: "a/m", providerName: "p", endpointId: "p/m",
  upstreamId: null, streamed: false, cancelled: false, finishReason: "stop", nativeFinishReason: null, tokensPrompt: 1, tokensCompletion: 1, tokensCached: 0,
  tokensCacheWrite: 0, tokensReasoning: 0, usageEstimated: false, costNanos, promptCostNanos: 0, completionCostNanos: costNanos, isByok: false, latencyMs: 1,
  generationTimeMs: null, timeToFirstTokenMs: null, attempts: [], sessionId: null, externalUser: null, presetId: null, trace: null, httpReferer: null,
  userAgent: null, origin: "", errorMessage: null, createdAt: now,
});

test("records of one turn commit together with their spend and reservation release, just after it", async () => {
  const store = createSqliteStore(":memory:");
  const writer = new GenerationWriter(store, silentLogger);
  store.reservations.reserve({ id: "r1", key: { hash: "k", limitNanos: 1000, limitReset: null, includeByokInLimit: false }, amountNanos: 500, now });
  writer.enqueue(record("g1", 100), now, "r1");
  writer.enqueue(record("g2", 50), now, null);
  expect(store.generations.get("g1")).toBeUndefined();
  expect(writer.pending).toBe(2);
  await new Promise((r) => setImmediate(r));
  expect(writer.pending).toBe(0);
  expect(store.generations.get("g2")?.costNanos).toBe(50);
  expect(keySpend(store.usage.get("k"), now).total).toBe(150);
  expect(store.reservations.held("k")).toBe(0);
});

test("flush commits at once, and one bad row does not lose the others", () => {
  const store = createSqliteStore(":memory:");
  const writer = new GenerationWriter(store, silentLogger);
  writer.enqueue(record("dup", 10), now, null);
  writer.flush();
  writer.enqueue(record("dup", 10), now, null);
  writer.enqueue(record("ok", 20), now, null);
  writer.flush();
  expect(store.generations.get("ok")?.costNanos).toBe(20);
  expect(keySpend(store.usage.get("k"), now).total).toBe(30);
});
