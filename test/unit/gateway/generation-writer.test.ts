import { expect, test } from "bun:test";
import { keySpend } from "../../../src/billing/key-figures";
import { windowKeys } from "../../../src/billing/windows";
import { COST_FREE_WINDOW_MS, GenerationWriter } from "../../../src/gateway/generation-writer";
import { settlement } from "../../../src/gateway/record";
import { silentLogger } from "../../../src/logger";
import type { ObservedEntry } from "../../../src/observability/jobs/observed-payload";
import { createSqliteStore } from "../../../src/store/sqlite";
import type { GenerationRecord, GenerationStore, Store } from "../../../src/store/store";

const now = Date.parse("2026-11-22T12:00:00Z");

const record = (id: string, costNanos: number): GenerationRecord => ({
  id,
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
  tokensPrompt: 1,
  tokensCompletion: 1,
  tokensCached: 0,
  tokensCacheWrite: 0,
  tokensReasoning: 0,
  usageEstimated: false,
  costNanos,
  promptCostNanos: 0,
  completionCostNanos: costNanos,
  isByok: false,
  latencyMs: 1,
  generationTimeMs: null,
  timeToFirstTokenMs: null,
  attempts: [],
  sessionId: null,
  externalUser: null,
  presetId: null,
  trace: null,
  httpReferer: null,
  userAgent: null,
  origin: "",
  errorMessage: null,
  createdAt: now,
});

/** Counts the store's commits: group commit means one per turn, not one per record. */
function countingCommits(store: Store): { store: Store; batches: number[] } {
  const batches: number[] = [];
  const generations: GenerationStore = { ...store.generations, commit: (batch) => (batches.push(batch.length), store.generations.commit(batch)) };
  return { store: { ...store, generations }, batches };
}

test("records of one turn commit together with their spend and reservation release, before commit() resolves", async () => {
  const base = createSqliteStore(":memory:");
  const { store, batches } = countingCommits(base);
  const writer = new GenerationWriter(store, silentLogger);
  await store.reservations.reserve({
    id: "r1",
    keyHash: "k",
    limitNanos: 1000,
    window: { counter: "total", windowKey: "", includeByok: false },
    windows: windowKeys(now),
    amountNanos: 500,
    instanceId: "i",
    now,
    expiresAt: now + 60_000,
  });
  const first = writer.commit(settlement(record("g1", 100), now, "r1"));
  const second = writer.commit(settlement(record("g2", 50), now, null));
  expect(await store.generations.get("g1")).toBeUndefined();
  expect(writer.pending).toBe(2);
  await Promise.all([first, second]);
  expect(writer.pending).toBe(0);
  expect(batches).toEqual([2]);
  expect((await store.generations.get("g2"))?.costNanos).toBe(50);
  expect(keySpend(await store.usage.get("k"), now).total).toBe(150);
  expect(await store.reservations.held("k")).toBe(0);
});

test("a record already stored is skipped with its spend, and does not lose the others of its batch", async () => {
  const store = createSqliteStore(":memory:");
  const writer = new GenerationWriter(store, silentLogger);
  await writer.commit(settlement(record("dup", 10), now, null));
  await Promise.all([writer.commit(settlement(record("dup", 10), now, null)), writer.commit(settlement(record("ok", 20), now, null))]);
  expect((await store.generations.get("ok"))?.costNanos).toBe(20);
  expect(keySpend(await store.usage.get("k"), now).total).toBe(30);
});

test("records handed over while a commit is in flight go in the next one; settled() waits for all", async () => {
  const base = createSqliteStore(":memory:");
  const { store, batches } = countingCommits(base);
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const slow: Store = { ...store, generations: { ...store.generations, commit: async (batch) => (await gate, store.generations.commit(batch)) } };
  const writer = new GenerationWriter(slow, silentLogger);
  const a = writer.commit(settlement(record("a", 1), now, null));
  await new Promise((r) => setImmediate(r));
  const b = writer.commit(settlement(record("b", 1), now, null));
  const c = writer.commit(settlement(record("c", 1), now, null));
  const settled = writer.settled();
  release();
  await Promise.all([a, b, c, settled]);
  expect(batches).toEqual([1, 2]);
  expect((await store.generations.get("c"))?.id).toBe("c");
});

test("a record the store refuses rejects its commit and is retried in the background", async () => {
  const store = createSqliteStore(":memory:");
  let refuse = true;
  const flaky: Store = {
    ...store,
    generations: { ...store.generations, commit: (batch) => (refuse ? Promise.reject(new Error("database away")) : store.generations.commit(batch)) },
  };
  const writer = new GenerationWriter(flaky, silentLogger, { retryEveryMs: 20 });
  await expect(writer.commit(settlement(record("late", 7), now, null))).rejects.toThrow("database away");
  await Bun.sleep(30);
  refuse = false;
  await Bun.sleep(60);
  expect((await store.generations.get("late"))?.costNanos).toBe(7);
  expect(keySpend(await store.usage.get("k"), now).total).toBe(7);
});

const entry = (generationId: string): ObservedEntry => ({
  generationId,
  workspaceId: "w",
  parts: { operation: "chat" as const, keyName: "k", providerName: "P", input: null, output: { text: `answer ${generationId}`, reasoning: "", toolCalls: [] } },
  createdAt: now,
});

test("the generations to forward of one commit are sealed once, into one outbox row carried by the first of them; a commit that fails and runs record by record seals each alone", async () => {
  const base = createSqliteStore(":memory:");
  const seals: string[][] = [];
  const sealObservations = (entries: readonly ObservedEntry[]) => (
    seals.push(entries.map((e) => e.generationId)),
    { generationId: entries[0]!.generationId, workspaceId: "w", sealed: `sealed ${entries.map((e) => e.generationId).join(",")}`, createdAt: now }
  );
  const seen: Array<Array<string | Uint8Array | null>> = [];
  let failOnce = false;
  const store: Store = {
    ...base,
    generations: {
      ...base.generations,
      commit: (batch) => {
        seen.push(batch.map((b) => b.observation?.sealed ?? null));
        if (failOnce && batch.length > 1) return ((failOnce = false), Promise.reject(new Error("one bad record")));
        return base.generations.commit(batch);
      },
    },
  };
  let woken = 0;
  const writer = new GenerationWriter(store, silentLogger, { sealObservations, onOutboxCommitted: () => woken++ });
  await Promise.all([
    writer.commit(settlement(record("plain", 1), now, null)),
    writer.commit({ ...settlement(record("f1", 1), now, null), observed: entry("f1") }),
    writer.commit({ ...settlement(record("f2", 1), now, null), observed: entry("f2") }),
  ]);
  expect(seals).toEqual([["f1", "f2"]]);
  expect(seen).toEqual([[null, "sealed f1,f2", null]]);
  expect((await base.observationOutbox.claim("t", now, now + 60_000, 10)).map((r) => [r.generationId, r.sealed])).toEqual([["f1", "sealed f1,f2"]]);
  expect(woken).toBe(1);

  failOnce = true;
  await Promise.all([
    writer.commit({ ...settlement(record("f3", 1), now, null), observed: entry("f3") }),
    writer.commit({ ...settlement(record("f4", 1), now, null), observed: entry("f4") }),
  ]);
  expect(seals.slice(1)).toEqual([["f3", "f4"], ["f3"], ["f4"]]);
  expect((await base.observationOutbox.claim("t", now + 1, now + 1, 10)).map((r) => r.sealed)).toEqual(["sealed f3", "sealed f4"]);
});

test("a writer made without a sealer refuses a generation to forward, and commits the others", async () => {
  const store = createSqliteStore(":memory:");
  const writer = new GenerationWriter(store, silentLogger, { retryEveryMs: 60_000 });
  await expect(writer.commit({ ...settlement(record("f", 1), now, null), observed: entry("f") })).rejects.toThrow("without an observation sealer");
  await writer.commit(settlement(record("plain", 1), now, null));
  expect((await store.generations.get("plain"))?.id).toBe("plain");
});

test("a cost-free record (a cache hit's) waits up to the window, or rides with the next group; settled() commits it at once", async () => {
  const base = createSqliteStore(":memory:");
  const { store, batches } = countingCommits(base);
  const writer = new GenerationWriter(store, silentLogger, { deferCostFree: true });
  // resolved before anything is committed: nobody waits for a record that owes nothing
  await writer.commitCostFree(settlement(record("hit1", 0), now, null));
  expect(batches).toEqual([]);
  expect(writer.pending).toBe(1);
  // committed by the window's timer (waited for up to 2 s: a loaded machine runs timers late)
  for (let waited = 0; batches.length === 0 && waited < 2000; waited += 5) await Bun.sleep(5);
  expect(batches).toEqual([1]);
  expect(await store.generations.get("hit1")).toBeDefined();
  // a record that is awaited takes the waiting one along in its transaction
  await writer.commitCostFree(settlement(record("hit2", 0), now, null));
  await writer.commit(settlement(record("paid", 10), now, null));
  expect(batches).toEqual([1, 2]);
  expect(await store.generations.get("hit2")).toBeDefined();
  // a read waits for settled(): the record is there at once, not a window later
  await writer.commitCostFree(settlement(record("hit3", 0), now, null));
  await writer.settled();
  expect(batches).toEqual([1, 2, 1]);
  expect(await store.generations.get("hit3")).toBeDefined();
  await Bun.sleep(COST_FREE_WINDOW_MS + 20);
  expect(batches).toEqual([1, 2, 1]);
});

test("without deferCostFree (PostgreSQL: other instances read too) a cost-free record is durable before its promise resolves", async () => {
  const base = createSqliteStore(":memory:");
  const { store, batches } = countingCommits(base);
  const writer = new GenerationWriter(store, silentLogger);
  await writer.commitCostFree(settlement(record("hit", 0), now, null));
  expect(batches).toEqual([1]);
  expect(await store.generations.get("hit")).toBeDefined();
});
