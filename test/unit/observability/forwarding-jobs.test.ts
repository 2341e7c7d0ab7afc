import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createSecretBox } from "../../../src/crypto/secret-box";
import { PermanentFailure, RetryAfter } from "../../../src/jobs/job-errors";
import { jobRegistry } from "../../../src/jobs/registry";
import { JobRunner } from "../../../src/jobs/runner";
import { createLogger, silentLogger } from "../../../src/logger";
import { observedGeneration } from "../../../src/observability/capture/observed-generation";
import type { Destination, DestinationSender, ObservedGeneration, SendOutcome } from "../../../src/observability/contract";
import { type DeliverJob, deliverJob, deliverKind, OBSERVABILITY_DELIVER } from "../../../src/observability/jobs/deliver-kind";
import { openObserved, sealObserved, sealObservedBatch } from "../../../src/observability/jobs/observed-payload";
import { DRAIN_BATCH, DRAIN_GAP_MS, OutboxPump } from "../../../src/observability/jobs/outbox-pump";
import { OutboxSettlement } from "../../../src/observability/jobs/outbox-settlement";
import type { ObservabilityParts } from "../../../src/observability/jobs/parts";
import { createSqliteStore } from "../../../src/store/sqlite";
import type { Store } from "../../../src/store/store";
import { generation, settled, workspace } from "../../store/contract/fixtures";
import { tempDir } from "../../support/gateway";
import { until } from "../../support/until";
import { destination, observed } from "./observed-fixture";

const secrets = createSecretBox(new Uint8Array(32).map((_, i) => i * 7));
const CANARY = "CANARY-e2b81d";
const NOW = 1_800_000_000_000;

const opened: Array<{ store: Store; dir: string }> = [];
afterEach(async () => {
  for (const { store, dir } of opened.splice(0)) {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function openStore(broadcast = true): Promise<Store> {
  const dir = tempDir("gw-obs-jobs-");
  const store = createSqliteStore(join(dir, "g.db"));
  opened.push({ store, dir });
  await store.workspaces.create(workspace("ws-1", 1000, { settings: { is_observability_broadcast_enabled: broadcast } }));
  return store;
}

/** A reader over a map the test edits, and a registry whose sender records what it was sent and answers from a script. */
function fakeParts(destinations: Destination[], answers: SendOutcome[] = []) {
  const byId = new Map(destinations.map((d) => [d.id, d]));
  const sent: Array<{ destination: string; generation: ObservedGeneration }> = [];
  let reads = 0;
  const sender: DestinationSender = {
    type: "webhook",
    configKeys: [],
    probe: async () => ({ ok: true }),
    send: async (generation, d) => {
      sent.push({ destination: d.id, generation });
      return answers.shift() ?? { kind: "delivered" };
    },
  };
  const parts: ObservabilityParts = {
    destinations: {
      enabledForWorkspace: async (ws) => (reads++, [...byId.values()].filter((d) => d.workspaceId === ws && d.enabled)),
      byId: async (id) => byId.get(id) ?? null,
    },
    senders: () => sender,
  };
  return { parts, byId, sent, reads: () => reads };
}

const withCanary = observed({
  id: "gen-canary",
  input: { messages: [{ role: "user", content: `tell me ${CANARY}` }], tools: null, parameters: {} },
  output: { text: `here: ${CANARY}`, toolCalls: [] },
});

/** commits a record with `g` in its outbox, as a forwarded request's commit does */
const queue = (store: Store, g: ObservedGeneration) =>
  store.generations.commit([
    {
      ...settled(generation(g.id, g.keyHash, 0, { workspaceId: g.workspaceId }), { nanos: null }),
      observation: { generationId: g.id, workspaceId: g.workspaceId, sealed: sealObserved(secrets, g), createdAt: NOW },
    },
  ]);

const senderDeps = { http: async () => ({ kind: "failed" as const, reason: "unused", timedOut: false }), clock: () => NOW, allowPrivateUrls: false };

/** an outbox pump on a runner that is not started (attempts without a row need only its slots), clock at NOW */
function pumpFor(
  store: Store,
  parts: ObservabilityParts | null,
  opts: { concurrency?: number; logger?: ReturnType<typeof createLogger>; owner?: string } = {},
) {
  const logger = opts.logger ?? silentLogger;
  const runner = new JobRunner({
    store: store.jobs,
    registry: jobRegistry([deliverKind({ secrets, senderDeps, parts })]),
    owner: "t/jobs-0",
    leaseMs: 5000,
    concurrency: opts.concurrency ?? 32,
    backoffMs: [60_000],
    pollMs: 60_000,
    logger,
    clock: () => NOW,
    random: () => 0.5,
  });
  const pump = new OutboxPump(
    { store, secrets, senderDeps, clock: () => NOW, logger, parts, owner: opts.owner ?? "t/outbox", claimMs: 60_000, runner },
    60_000,
  );
  return { runner, pump };
}

/** drains once and waits until every claimed row is settled and written */
async function drainAll(pump: OutboxPump): Promise<void> {
  await pump.drainNow();
  await pump.settled();
}

/** drains, then stops the pump and its runner while the deliveries are under way, as a stopping worker does */
async function stopWhileSending({ runner, pump }: ReturnType<typeof pumpFor>): Promise<void> {
  await pump.drainNow();
  await pump.stop();
  await runner.stop(0);
  await pump.finish();
}

/** the outbox rows nobody holds at NOW (claimed by a probe that lets them go at once) */
async function unclaimed(store: Store): Promise<string[]> {
  const rows = await store.observationOutbox.claim("probe", NOW, 0, 1000);
  return rows.map((r) => r.generationId);
}

const outcomesOf = async (store: Store) => (await store.jobs.stats(NOW)).outcomes;

describe("forwarding the observation outbox", () => {
  test("one delivery per matching destination, privacy applied, sent without a job row; the row is gone and the deliveries counted", async () => {
    const store = await openStore();
    const { parts, sent } = fakeParts([
      destination({ id: "d-open" }),
      destination({ id: "d-private", privacyMode: true }),
      destination({ id: "d-other-key", apiKeyHashes: ["someone-else"] }),
      destination({ id: "d-filtered", filterRules: { groups: [{ rules: [{ field: "model", operator: "equals", value: "anthropic/claude" }] }] } }),
      destination({ id: "d-disabled", enabled: false }),
    ]);
    await queue(store, withCanary);
    const [row] = await store.observationOutbox.claim("peek", NOW, 0, 1);
    expect(row!.sealed).not.toContain(CANARY);
    await drainAll(pumpFor(store, parts).pump);
    expect(sent).toEqual([
      { destination: "d-open", generation: withCanary },
      { destination: "d-private", generation: { ...withCanary, input: null, output: null } },
    ]);
    expect(JSON.stringify(sent[1])).not.toContain(CANARY);
    expect(await unclaimed(store)).toEqual([]);
    expect(await store.jobs.count({})).toBe(0);
    expect(await outcomesOf(store)).toEqual([{ kind: OBSERVABILITY_DELIVER, outcome: "succeeded", count: 2 }]);
  });

  test("a delivery that fails is stored as its job (sealed, as its destination sees it): pending at its Retry-After with attempts 1, or dead when refused; the delivered one is not", async () => {
    const store = await openStore();
    const answers: Record<string, SendOutcome> = {
      "d-retry": { kind: "retry", reason: "HTTP 429", afterSeconds: 120 },
      "d-refuses": { kind: "failed", reason: "HTTP 400: bad body" },
    };
    const { parts, sent } = fakeParts([destination({ id: "d-ok" }), destination({ id: "d-retry" }), destination({ id: "d-refuses", privacyMode: true })]);
    const answering: ObservabilityParts = {
      ...parts,
      senders: () => ({
        ...parts.senders("webhook"),
        send: async (g, d, deps) => (await parts.senders("webhook").send(g, d, deps), answers[d.id] ?? { kind: "delivered" }),
      }),
    };
    await queue(store, withCanary);
    await drainAll(pumpFor(store, answering).pump);
    expect(sent.map((s) => s.destination)).toEqual(["d-ok", "d-retry", "d-refuses"]);
    expect(await unclaimed(store)).toEqual([]);
    const jobs = await store.jobs.list({ kind: OBSERVABILITY_DELIVER }, 0, 10);
    expect(jobs.map((j) => [j.key, j.state, j.attempts, j.lastError, j.runAt])).toEqual(
      [
        ["d-refuses:gen-canary", "dead", 1, "HTTP 400: bad body", NOW],
        ["d-retry:gen-canary", "pending", 1, "HTTP 429", NOW + 120_000],
      ].sort((a, b) => (String(a[0]) < String(b[0]) ? 1 : -1)),
    );
    for (const j of jobs) {
      // sealed at rest: no byte of the stored payload is the prompt
      expect(JSON.stringify(j.payload)).not.toContain(CANARY);
      const seen = openObserved(secrets, (j.payload as DeliverJob).sealed);
      expect(seen).toEqual(j.key === "d-retry:gen-canary" ? withCanary : { ...withCanary, input: null, output: null });
    }
    expect(await outcomesOf(store)).toEqual([
      { kind: OBSERVABILITY_DELIVER, outcome: "dead", count: 1 },
      { kind: OBSERVABILITY_DELIVER, outcome: "failed", count: 1 },
      { kind: OBSERVABILITY_DELIVER, outcome: "succeeded", count: 1 },
    ]);
  });

  test("a group commit's row (the parts its records lack) goes out as those records with their parts; a generation without a record is logged and left out", async () => {
    const store = await openStore();
    const { parts, sent } = fakeParts([destination({ id: "d-open" })]);
    const record = generation("gen-parts", "key-1", 0, { workspaceId: "ws-1", model: "openai/gpt", requestedModel: "openai/gpt", latencyMs: 120 });
    const content = {
      operation: "chat" as const,
      keyName: "ci key",
      providerName: "OpenAI",
      input: { messages: [{ role: "user", content: `tell me ${CANARY}` }], tools: null, parameters: {} },
      output: { text: `here: ${CANARY}`, reasoning: "", toolCalls: [] },
    };
    const other = generation("gen-other", "key-1", 0, { workspaceId: "ws-1" });
    // one row for the commit: two records with parts, and an entry whose generation id names no record
    const row = sealObservedBatch(secrets, [
      { generationId: record.id, workspaceId: "ws-1", parts: content, createdAt: NOW },
      { generationId: "gen-missing", workspaceId: "ws-1", parts: content, createdAt: NOW },
      { generationId: other.id, workspaceId: "ws-1", parts: { ...content, keyName: "other key" }, createdAt: NOW },
    ]);
    expect(row.sealed).not.toContain(CANARY);
    await store.generations.commit([{ ...settled(record, { nanos: null }), observation: row }, settled(other, { nanos: null })]);
    const lines: Array<Record<string, unknown>> = [];
    await drainAll(pumpFor(store, parts, { logger: createLogger("debug", (l) => lines.push(JSON.parse(l))) }).pump);
    expect(sent.map((s) => s.generation.id)).toEqual(["gen-parts", "gen-other"]);
    expect(sent[0]!.generation).toEqual(observedGeneration((await store.generations.get("gen-parts"))!, content));
    expect(sent[0]!.generation).toMatchObject({
      id: "gen-parts",
      model: "openai/gpt",
      keyName: "ci key",
      providerName: "OpenAI",
      endedAt: record.createdAt + 120,
      output: { text: `here: ${CANARY}` },
    });
    expect(sent[1]!.generation).toMatchObject({ id: "gen-other", keyName: "other key" });
    expect(lines).toEqual([
      expect.objectContaining({ level: "error", msg: "an observed generation has no record; it is not forwarded", generation: "gen-missing" }),
    ]);
    expect(await unclaimed(store)).toEqual([]);
  });

  test("rows of earlier versions still go out: one generation's parts, or one whole generation", async () => {
    const store = await openStore();
    const { parts, sent } = fakeParts([destination({ id: "d-open" })]);
    const record = generation("gen-old-parts", "key-1", 0, { workspaceId: "ws-1" });
    const content = { operation: "chat" as const, keyName: "ci key", providerName: "OpenAI", input: null, output: null };
    await store.generations.commit([
      {
        ...settled(record, { nanos: null }),
        observation: { generationId: record.id, workspaceId: "ws-1", sealed: secrets.sealSync(JSON.stringify({ parts: content })), createdAt: NOW },
      },
    ]);
    await queue(store, observed({ id: "gen-old-whole" }));
    await drainAll(pumpFor(store, parts).pump);
    expect(sent.map((s) => s.generation)).toEqual([
      observedGeneration((await store.generations.get("gen-old-parts"))!, content),
      observed({ id: "gen-old-whole" }),
    ]);
  });

  test("batches past the first; destinations read once per batch; two pumps at once (two instances) send each generation once", async () => {
    const store = await openStore();
    const { parts, sent, reads } = fakeParts([destination({ id: "d1" })]);
    const ids = Array.from({ length: DRAIN_BATCH + 5 }, (_, i) => `g${String(i).padStart(3, "0")}`);
    for (const id of ids) await queue(store, observed({ id }));
    await drainAll(pumpFor(store, parts, { concurrency: 500 }).pump);
    expect(reads()).toBe(2);
    expect(sent.map((s) => s.generation.id)).toEqual(ids);
    sent.length = 0;
    for (const id of ids) await queue(store, observed({ id: `again-${id}` }));
    const [a, b] = [pumpFor(store, parts, { owner: "a/outbox", concurrency: 40 }).pump, pumpFor(store, parts, { owner: "b/outbox", concurrency: 40 }).pump];
    await Promise.all([drainAll(a), drainAll(b)]);
    while ((await store.observationOutbox.claim("peek", NOW, 0, 1)).length > 0) await Promise.all([drainAll(a), drainAll(b)]);
    expect(sent.map((s) => s.generation.id).sort()).toEqual(ids.map((id) => `again-${id}`));
  });

  test("a drain claims nothing while every slot is taken (the next wake-up does), and a delivery that ends starts the next drain; rows another pump holds are left to it until its claim ends, then taken again (at least once)", async () => {
    const store = await openStore();
    const { parts, sent } = fakeParts([destination({ id: "d1" })]);
    const gate = Promise.withResolvers<void>();
    const started: string[] = [];
    const gated: ObservabilityParts = {
      ...parts,
      senders: () => ({
        ...parts.senders("webhook"),
        send: async (g, d, deps) => (started.push(g.id), await gate.promise, parts.senders("webhook").send(g, d, deps)),
      }),
    };
    for (const id of ["a", "b", "c"]) await queue(store, observed({ id }));
    // a pump that is alive holds "a"; one that died held "b" (its claim ended)
    await store.observationOutbox.claim("alive/outbox", NOW, NOW + 60_000, 1);
    await store.observationOutbox.claim("dead/outbox", NOW - 120_000, NOW - 60_000, 1);
    const { runner, pump } = pumpFor(store, gated, { concurrency: 2 });
    const busy = Promise.withResolvers<void>();
    const occupied = [
      runner.attemptUnstored({ id: "x", kind: OBSERVABILITY_DELIVER }, () => busy.promise),
      runner.attemptUnstored({ id: "y", kind: OBSERVABILITY_DELIVER }, () => busy.promise),
    ];
    await pump.drainNow();
    expect(started).toEqual([]);
    busy.resolve();
    await Promise.all(occupied);
    pump.trigger();
    await until("the next drain", () => (started.length === 2 ? true : undefined));
    expect(started).toEqual(["b", "c"]);
    for (const id of ["d", "e", "f"]) await queue(store, observed({ id }));
    gate.resolve();
    await until("the rest sent", () => (sent.length === 5 ? true : undefined));
    await pump.settled();
    expect(sent.map((s) => s.generation.id)).toEqual(["b", "c", "d", "e", "f"]);
    const left = await store.observationOutbox.claim("probe", NOW + 60_001, 0, 10);
    expect(left.map((r) => r.generationId)).toEqual(["a"]);
  });

  test("after a drain that found one row the next starts at once; after one that found more, not before the gap", async () => {
    const store = await openStore();
    const { parts, sent } = fakeParts([destination({ id: "d1" })]);
    const { pump } = pumpFor(store, parts);
    const sentAt = async (ids: string[]) => {
      for (const id of ids) await queue(store, observed({ id }));
      const from = performance.now();
      pump.trigger();
      await until(`sent ${ids.join(",")}`, () => (ids.every((id) => sent.some((s) => s.generation.id === id)) ? true : undefined), 5000, 1);
      return performance.now() - from;
    };
    expect(await sentAt(["q1"])).toBeLessThan(50);
    expect(await sentAt(["q2"])).toBeLessThan(50);
    await sentAt(["b1", "b2"]);
    // the last drain took two rows: the next waits for DRAIN_GAP_MS since that drain's start
    expect(await sentAt(["after-busy"])).toBeGreaterThanOrEqual(DRAIN_GAP_MS - 60);
    await pump.settled();
  });

  test("a fault of the pump itself (not a destination's answer) is logged and gives the row back whole", async () => {
    const store = await openStore();
    const { parts } = fakeParts([destination({ id: "d1" })]);
    await queue(store, observed({ id: "g-fault" }));
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger("error", (l) => lines.push(JSON.parse(l)));
    const { pump } = pumpFor(store, parts, { logger });
    // a runner that cannot run the kind: attemptUnstored throws
    const broken = new OutboxPump(
      {
        store,
        secrets,
        senderDeps,
        clock: () => NOW,
        logger,
        parts,
        owner: "t/outbox",
        claimMs: 60_000,
        runner: { room: 1, attemptUnstored: () => Promise.reject(new Error("no such kind")), firstAttemptFailed: () => expect.unreachable() },
      },
      60_000,
    );
    await drainAll(broken);
    expect(lines).toEqual([expect.objectContaining({ msg: "could not forward a claimed outbox row; it is tried again", error: "Error: no such kind" })]);
    expect(await store.jobs.count({})).toBe(0);
    await drainAll(pump);
    expect(await unclaimed(store)).toEqual([]);
    expect((await outcomesOf(store)).map((o) => [o.outcome, o.count])).toEqual([["succeeded", 1]]);
  });

  test("rows settled since the last write ride with the next claim in one transaction; alone, they are written at the end of the window", async () => {
    const base = await openStore();
    let transactions = 0;
    const store: Store = { ...base, transaction: (fn) => (transactions++, base.transaction(fn)) };
    for (const id of ["a", "b", "c"]) await queue(base, observed({ id }));
    const [a, b, c] = await base.observationOutbox.claim("t/outbox", NOW, NOW + 60_000, 3);
    let stored = 0;
    const settlement = new OutboxSettlement(store, OBSERVABILITY_DELIVER, silentLogger, () => stored++, 40);
    settlement.add({ seq: a!.seq, jobs: [], delivered: 2 });
    settlement.add({ seq: b!.seq, jobs: [deliverJob("d1", "b", sealObserved(secrets, observed({ id: "b" })), NOW)], delivered: 1 });
    expect(settlement.seqs).toEqual([a!.seq, b!.seq]);
    const claimed = await settlement.writeWith((tx) => tx.observationOutbox.claim("t/outbox", NOW + 120_000, NOW + 180_000, 10));
    expect(transactions).toBe(1);
    expect(claimed.map((r) => r.generationId)).toEqual(["c"]);
    expect(stored).toBe(1);
    expect(await base.jobs.count({ kind: OBSERVABILITY_DELIVER })).toBe(1);
    expect(await outcomesOf(base)).toEqual([{ kind: OBSERVABILITY_DELIVER, outcome: "succeeded", count: 3 }]);
    await Bun.sleep(60);
    // nothing was left for the window's own write
    expect(transactions).toBe(1);
    settlement.add({ seq: c!.seq, jobs: [], delivered: 1 });
    await Bun.sleep(20);
    expect(transactions).toBe(1);
    await until("the window's write", () => (transactions === 2 ? true : undefined));
    expect(await base.observationOutbox.claim("probe", NOW + 999_999, 0, 10)).toEqual([]);
  });

  test("a workspace that turned broadcast off forwards nothing; its rows go", async () => {
    const store = await openStore(false);
    const { parts, sent } = fakeParts([destination()]);
    await queue(store, observed());
    await drainAll(pumpFor(store, parts).pump);
    expect(sent).toEqual([]);
    expect(await store.jobs.count({ kind: OBSERVABILITY_DELIVER })).toBe(0);
    expect(await unclaimed(store)).toEqual([]);
  });

  test("without destinations wired, nothing is forwarded and the pump says so once", async () => {
    const store = await openStore();
    const lines: string[] = [];
    const { pump } = pumpFor(store, null, { logger: createLogger("warn", (l) => lines.push(l)) });
    await queue(store, observed({ id: "a" }));
    pump.start();
    await until("drained", async () => ((await store.observationOutbox.claim("peek", NOW, 0, 1)).length === 0 ? true : undefined));
    await queue(store, observed({ id: "b" }));
    pump.trigger();
    await until("drained again", async () => ((await store.observationOutbox.claim("peek", NOW, 0, 1)).length === 0 ? true : undefined));
    await pump.stop();
    await pump.finish();
    expect(await store.jobs.count({})).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("no destinations");
  });

  test("a failing reader gives the rows back for the next drain", async () => {
    const store = await openStore();
    const { parts, sent } = fakeParts([destination()]);
    let fail = true;
    const flaky: ObservabilityParts = {
      ...parts,
      destinations: {
        ...parts.destinations,
        enabledForWorkspace: async (ws) => (fail ? Promise.reject(new Error("db away")) : parts.destinations.enabledForWorkspace(ws)),
      },
    };
    await queue(store, observed());
    const lines: string[] = [];
    const { pump } = pumpFor(store, flaky, { logger: createLogger("warn", (l) => lines.push(l)) });
    await drainAll(pump);
    expect(lines).toEqual([expect.stringContaining("db away")]);
    expect(sent).toEqual([]);
    fail = false;
    await drainAll(pump);
    expect(sent.map((s) => s.generation.id)).toEqual(["gen-1"]);
    expect(await unclaimed(store)).toEqual([]);
  });

  test("a delivery the stopping worker did not finish is stored pending (no attempt counted), and its row goes", async () => {
    const store = await openStore();
    const { parts } = fakeParts([destination({ id: "d1" })]);
    const hanging: ObservabilityParts = { ...parts, senders: () => ({ ...parts.senders("webhook"), send: () => new Promise<SendOutcome>(() => {}) }) };
    await queue(store, observed({ id: "g-hang" }));
    await stopWhileSending(pumpFor(store, hanging));
    expect(await unclaimed(store)).toEqual([]);
    const [job] = await store.jobs.list({ kind: OBSERVABILITY_DELIVER }, 0, 10);
    expect([job?.key, job?.state, job?.attempts, job?.runAt]).toEqual(["d1:g-hang", "pending", 0, NOW]);
  });
});

/** parts whose sender sends many together: each call's destination and generation ids recorded, each generation answered by `answer` */
function batchingParts(destinations: Destination[], answer: (generationId: string, destinationId: string) => SendOutcome = () => ({ kind: "delivered" })) {
  const { parts } = fakeParts(destinations);
  const calls: Array<{ destination: string; generations: string[] }> = [];
  let hang = false;
  const sender: DestinationSender = {
    ...parts.senders("webhook"),
    send: () => Promise.reject(new Error("a batching sender is sent many")),
    sendMany: (generations, d) => {
      calls.push({ destination: d.id, generations: generations.map((g) => g.id) });
      return hang ? new Promise(() => {}) : Promise.resolve(generations.map((g) => answer(g.id, d.id)));
    },
  };
  return { parts: { ...parts, senders: () => sender } satisfies ObservabilityParts, calls, hangFromNowOn: () => (hang = true) };
}

describe("forwarding a drain's generations together", () => {
  test("one attempt per destination for every generation of the drain's rows, in order", async () => {
    const store = await openStore();
    const { parts, calls } = batchingParts([destination({ id: "d-a" }), destination({ id: "d-b", privacyMode: true })]);
    for (const id of ["g1", "g2", "g3"]) await queue(store, observed({ id }));
    await drainAll(pumpFor(store, parts).pump);
    expect(calls).toEqual([
      { destination: "d-a", generations: ["g1", "g2", "g3"] },
      { destination: "d-b", generations: ["g1", "g2", "g3"] },
    ]);
    expect(await unclaimed(store)).toEqual([]);
    expect(await store.jobs.count({})).toBe(0);
    expect(await outcomesOf(store)).toEqual([{ kind: OBSERVABILITY_DELIVER, outcome: "succeeded", count: 6 }]);
  });

  test("each generation's own outcome: the delivered ones are done, a retried one waits for its Retry-After, a refused one is dead; the row goes", async () => {
    const store = await openStore();
    const answers: Record<string, SendOutcome> = {
      g2: { kind: "retry", reason: "HTTP 503", afterSeconds: 30 },
      g3: { kind: "failed", reason: "HTTP 400: span too large" },
    };
    const { parts, calls } = batchingParts([destination({ id: "d-a" })], (g) => answers[g] ?? { kind: "delivered" });
    for (const id of ["g1", "g2", "g3", "g4"]) await queue(store, observed({ id }));
    await drainAll(pumpFor(store, parts).pump);
    expect(calls).toEqual([{ destination: "d-a", generations: ["g1", "g2", "g3", "g4"] }]);
    expect(await unclaimed(store)).toEqual([]);
    const jobs = await store.jobs.list({ kind: OBSERVABILITY_DELIVER }, 0, 10);
    expect(jobs.map((j) => [j.key, j.state, j.attempts, j.lastError, j.runAt]).sort()).toEqual([
      ["d-a:g2", "pending", 1, "HTTP 503", NOW + 30_000],
      ["d-a:g3", "dead", 1, "HTTP 400: span too large", NOW],
    ]);
    for (const j of jobs) expect(openObserved(secrets, (j.payload as DeliverJob).sealed)).toEqual(observed({ id: j.key!.slice("d-a:".length) }));
    expect((await outcomesOf(store)).map((o) => [o.kind, o.outcome, o.count])).toEqual([
      [OBSERVABILITY_DELIVER, "dead", 1],
      [OBSERVABILITY_DELIVER, "failed", 1],
      [OBSERVABILITY_DELIVER, "succeeded", 2],
    ]);
  });

  test("an attempt the stopping worker did not let end leaves every generation of it pending (no attempt counted)", async () => {
    const store = await openStore();
    const { parts, hangFromNowOn } = batchingParts([destination({ id: "d-a" })]);
    hangFromNowOn();
    for (const id of ["g1", "g2"]) await queue(store, observed({ id }));
    await stopWhileSending(pumpFor(store, parts));
    expect(await unclaimed(store)).toEqual([]);
    const jobs = await store.jobs.list({ kind: OBSERVABILITY_DELIVER }, 0, 10);
    expect(jobs.map((j) => [j.key, j.state, j.attempts]).sort()).toEqual([
      ["d-a:g1", "pending", 0],
      ["d-a:g2", "pending", 0],
    ]);
  });
});

describe("observability.deliver", () => {
  const payloadFor = (d: Destination, g: ObservedGeneration = withCanary) => deliverJob(d.id, g.id, sealObserved(secrets, g), NOW).payload;
  const run = (kind: ReturnType<typeof deliverKind>, payload: unknown) => kind.run(payload, { job: {} as never, signal: new AbortController().signal });

  const outcomes: Array<[string, SendOutcome, (err: unknown) => void]> = [
    ["delivered: done", { kind: "delivered" }, (err) => expect(err).toBeUndefined()],
    [
      "retry with Retry-After: RetryAfter(seconds)",
      { kind: "retry", reason: "HTTP 429", afterSeconds: 7 },
      (err) => {
        expect(err).toBeInstanceOf(RetryAfter);
        expect((err as RetryAfter).afterMs).toBe(7000);
        expect((err as Error).message).toBe("HTTP 429");
      },
    ],
    [
      "retry without a delay: the backoff schedule",
      { kind: "retry", reason: "HTTP 503" },
      (err) => {
        expect(err).toBeInstanceOf(Error);
        expect(err).not.toBeInstanceOf(RetryAfter);
        expect(err).not.toBeInstanceOf(PermanentFailure);
      },
    ],
    [
      "failed: permanent, with the reason",
      { kind: "failed", reason: "HTTP 401: bad key" },
      (err) => {
        expect(err).toBeInstanceOf(PermanentFailure);
        expect((err as Error).message).toBe("HTTP 401: bad key");
      },
    ],
  ];
  for (const [name, outcome, check] of outcomes)
    test(name, async () => {
      const d = destination({ id: "d1" });
      const { parts, sent } = fakeParts([d], [outcome]);
      const err = await run(deliverKind({ secrets, senderDeps, parts }), payloadFor(d)).then(
        () => undefined,
        (e: unknown) => e,
      );
      check(err);
      expect(sent).toEqual([{ destination: "d1", generation: withCanary }]);
    });

  test("a destination deleted or disabled since: done, nothing sent", async () => {
    const d = destination({ id: "d1" });
    const { parts, byId, sent } = fakeParts([d]);
    const kind = deliverKind({ secrets, senderDeps, parts });
    byId.set("d1", { ...d, enabled: false });
    await run(kind, payloadFor(d));
    byId.delete("d1");
    await run(kind, payloadFor(d));
    expect(sent).toEqual([]);
  });

  test("privacy mode turned on since: the content stays behind", async () => {
    const d = destination({ id: "d1" });
    const { parts, byId, sent } = fakeParts([d]);
    byId.set("d1", { ...d, privacyMode: true });
    await run(deliverKind({ secrets, senderDeps, parts }), payloadFor(d));
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent)).not.toContain(CANARY);
  });

  test("a payload that is not a delivery, or sealed under another key, is dead at once", async () => {
    const d = destination({ id: "d1" });
    const kind = deliverKind({ secrets, senderDeps, parts: fakeParts([d]).parts });
    const other = createSecretBox(new Uint8Array(32).fill(1));
    await expect(run(kind, deliverJob("d1", "g", sealObserved(other, observed()), NOW).payload)).rejects.toBeInstanceOf(PermanentFailure);
    await expect(run(kind, { what: "not a delivery" })).rejects.toBeInstanceOf(PermanentFailure);
  });

  test("through the runner: a 429 waits for its Retry-After, a refusal is dead with its reason", async () => {
    const store = await openStore();
    const d = destination({ id: "d1" });
    const { parts } = fakeParts(
      [d],
      [
        { kind: "retry", reason: "HTTP 429", afterSeconds: 120 },
        { kind: "failed", reason: "HTTP 400: bad body" },
      ],
    );
    await store.jobs.enqueue(deliverJob("d1", "g-retry", sealObserved(secrets, observed({ id: "g-retry" })), Date.now()));
    await store.jobs.enqueue(deliverJob("d1", "g-dead", sealObserved(secrets, observed({ id: "g-dead" })), Date.now() + 1));
    const runner = new JobRunner({
      store: store.jobs,
      registry: jobRegistry([deliverKind({ secrets, senderDeps, parts })]),
      owner: "t/jobs-0",
      leaseMs: 5000,
      concurrency: 1,
      backoffMs: [60_000],
      pollMs: 20,
      logger: silentLogger,
      clock: Date.now,
    });
    runner.start();
    try {
      await until("one dead, one waiting", async () =>
        (await store.jobs.count({ state: "dead" })) === 1 && (await store.jobs.count({ state: "pending" })) === 1 ? true : undefined,
      );
    } finally {
      await runner.stop(100);
    }
    const [waiting] = await store.jobs.list({ state: "pending" }, 0, 10);
    const [dead] = await store.jobs.list({ state: "dead" }, 0, 10);
    expect(waiting?.key).toBe("d1:g-retry");
    expect(waiting!.runAt - waiting!.updatedAt).toBeGreaterThanOrEqual(119_000);
    expect(dead?.key).toBe("d1:g-dead");
    expect(dead?.lastError).toBe("HTTP 400: bad body");
    expect(dead?.attempts).toBe(1);
  });
});
