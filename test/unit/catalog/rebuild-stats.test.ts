import { describe, expect, test } from "bun:test";
import { LiveStats } from "../../../src/catalog/live-stats";
import { rebuildFromGenerations, replayGeneration } from "../../../src/catalog/rebuild-stats";
import type { GenerationRecord } from "../../../src/store/store";

const NOW = Date.UTC(2026, 0, 5, 12, 0, 0);

function gen(i: number, o: Partial<GenerationRecord>): GenerationRecord {
  return {
    id: `gen-${i}`,
    keyHash: "k",
    workspaceId: "w",
    userId: null,
    apiType: "completions",
    requestedModel: "a/m",
    model: "a/m",
    providerName: "p",
    endpointId: "p/m",
    upstreamId: null,
    streamed: false,
    cancelled: false,
    finishReason: "stop",
    nativeFinishReason: null,
    tokensPrompt: 10,
    tokensCompletion: 100,
    tokensCached: 0,
    tokensCacheWrite: 0,
    tokensReasoning: 0,
    usageEstimated: false,
    costNanos: 0,
    promptCostNanos: 0,
    completionCostNanos: 0,
    isByok: false,
    latencyMs: 1000,
    generationTimeMs: null,
    timeToFirstTokenMs: null,
    attempts: [{ model: "a/m", provider: "p", endpoint: "p/m", status: 200, latency: 1000 }],
    sessionId: null,
    externalUser: null,
    presetId: null,
    trace: null,
    httpReferer: null,
    userAgent: null,
    origin: "",
    errorMessage: null,
    createdAt: NOW - 60_000,
    ...o,
  };
}

/** an in-memory `since` with the store's contract: createdAt >= since, oldest first, at most `limit` */
function store(records: GenerationRecord[]) {
  const sorted = [...records].sort((a, b) => a.createdAt - b.createdAt);
  const calls: number[] = [];
  return { calls, since: async (since: number, limit: number) => (calls.push(since), sorted.filter((g) => g.createdAt >= since).slice(0, limit)) };
}

describe("rebuilding live stats from generation records", () => {
  test("replays what the inference run recorded: latency, throughput, failures of other endpoints", () => {
    const stats = new LiveStats(() => NOW);
    replayGeneration(stats, gen(1, { latencyMs: 2000, tokensCompletion: 100 })); // 50 tok/s over the whole request
    replayGeneration(stats, gen(2, { streamed: true, latencyMs: 1500, timeToFirstTokenMs: 500, generationTimeMs: 1000, tokensCompletion: 100 })); // 100 tok/s
    replayGeneration(
      stats,
      gen(3, {
        attempts: [
          { model: "a/m", provider: "q", endpoint: "q/m", status: 503, latency: 20 },
          { model: "a/m", provider: "p", endpoint: "p/m", status: 200, latency: 800 },
        ],
        latencyMs: 820,
      }),
    );
    replayGeneration(stats, gen(4, { finishReason: "error", tokensCompletion: null }));
    replayGeneration(stats, gen(5, { cancelled: true }));
    replayGeneration(
      stats,
      gen(6, { endpointId: null, finishReason: "error", attempts: [{ model: "a/m", provider: "q", endpoint: "q/m", status: 400, latency: 5 }] }),
    );
    const p = stats.stats("p/m", NOW);
    expect(p.requestsLast30m).toBe(4);
    expect(p.uptimeLast30m).toBe(75);
    // 2000, 500 (first token), and 800: the served attempt started after the 20 ms failure on q
    expect(p.latencyLast30m).toEqual({ p50: 722.51, p75: 2204.93, p90: 2204.93, p99: 2204.93 });
    expect(p.throughputLast30m).toEqual({ p50: 96.97, p75: 121.22, p90: 121.22, p99: 121.22 }); // 50, 100, 125 tok/s
    // a 503 counts against q; a 400 (the request's fault) does not
    expect(stats.stats("q/m", NOW)).toMatchObject({ requestsLast30m: 1, uptimeLast30m: 0 });
  });

  test("reads the last day in pages, without losing or repeating records that share a millisecond", async () => {
    const records: GenerationRecord[] = [];
    for (let i = 0; i < 12_000; i++) records.push(gen(i, { createdAt: NOW - 3_600_000 + Math.floor(i / 3) }));
    records.push(gen(99_999, { createdAt: NOW - 2 * 86_400_000 })); // older than a day: ignored
    const s = store(records);
    const stats = new LiveStats(() => NOW);
    expect(await rebuildFromGenerations(stats, s, NOW)).toBe(12_000);
    expect(s.calls.length).toBe(3);
    expect(stats.stats("p/m", NOW).uptimeLast1d).toBe(100);
  });

  test("an empty store rebuilds nothing", async () => {
    const stats = new LiveStats(() => NOW);
    expect(await rebuildFromGenerations(stats, store([]), NOW)).toBe(0);
    expect(stats.size).toBe(0);
  });
});
