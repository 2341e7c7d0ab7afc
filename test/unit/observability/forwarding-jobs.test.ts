import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createSecretBox } from "../../../src/crypto/secret-box";
import { PermanentFailure, RetryAfter } from "../../../src/jobs/job-errors";
import { jobRegistry } from "../../../src/jobs/registry";
import { JobRunner } from "../../../src/jobs/runner";
import { createLogger, silentLogger } from "../../../src/logger";
import type { Destination, DestinationSender, ObservedGeneration, SendOutcome } from "../../../src/observability/contract";
import { deliverJob, deliverKind, OBSERVABILITY_DELIVER, type DeliverJob } from "../../../src/observability/jobs/deliver-kind";
import { DRAIN_BATCH, drainObservations } from "../../../src/observability/jobs/drain-outbox";
import { openObserved, sealObserved, sealObservedParts } from "../../../src/observability/jobs/observed-payload";
import { observedGeneration } from "../../../src/observability/capture/observed-generation";
import { OutboxPump } from "../../../src/observability/jobs/outbox-pump";
import type { ObservabilityParts } from "../../../src/observability/jobs/parts";
import { createSqliteStore } from "../../../src/store/sqlite";
import type { Store } from "../../../src/store/store";
import { tempDir } from "../../support/gateway";
import { until } from "../../support/until";
import { generation, settled, workspace } from "../../store/contract/fixtures";
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
  store.generations.commit([{ ...settled(generation(g.id, g.keyHash, 0, { workspaceId: g.workspaceId }), { nanos: null }), observation: { generationId: g.id, workspaceId: g.workspaceId, sealed: sealObserved(secrets, g), createdAt: NOW } }]);

const drainDeps = (store: Store, parts: ObservabilityParts | null, logger = silentLogger) => ({ store, secrets, clock: () => NOW, logger, parts });

describe("draining the observation outbox", () => {
  test("one delivery job per matching destination, privacy applied before it is stored, sealed; the row is gone", async () => {
    const store = await openStore();
    const { parts } = fakeParts([
      destination({ id: "d-open" }),
      destination({ id: "d-private", privacyMode: true }),
      destination({ id: "d-other-key", apiKeyHashes: ["someone-else"] }),
      destination({ id: "d-filtered", filterRules: { groups: [{ rules: [{ field: "model", operator: "equals", value: "anthropic/claude" }] }] } }),
      destination({ id: "d-disabled", enabled: false }),
    ]);
    await queue(store, withCanary);
    const [row] = await store.observationOutbox.take(1);
    expect(row!.sealed).not.toContain(CANARY);
    expect(await drainObservations(drainDeps(store, parts))).toEqual({ taken: 1, deliveries: 2 });
    expect(await store.observationOutbox.take(10)).toEqual([]);
    const jobs = await store.jobs.list({ kind: OBSERVABILITY_DELIVER }, 0, 10);
    expect(jobs.map((j) => j.key).sort()).toEqual(["d-open:gen-canary", "d-private:gen-canary"]);
    for (const j of jobs) {
      // sealed at rest: no byte of the stored payload is the prompt
      expect(JSON.stringify(j.payload)).not.toContain(CANARY);
      const { destination_id, sealed } = j.payload as DeliverJob;
      const seen = await openObserved(secrets, sealed);
      if (destination_id === "d-private") {
        expect(JSON.stringify(seen)).not.toContain(CANARY);
        expect(seen).toEqual({ ...withCanary, input: null, output: null });
      } else expect(seen).toEqual(withCanary);
    }
  });

  test("a row the request side wrote (the parts its record lacks) goes out as its record with those parts; a row without a record is logged and dropped", async () => {
    const store = await openStore();
    const { parts } = fakeParts([destination({ id: "d-open" })]);
    const record = generation("gen-parts", "key-1", 0, { workspaceId: "ws-1", model: "openai/gpt", requestedModel: "openai/gpt", latencyMs: 120 });
    const content = { operation: "chat" as const, keyName: "ci key", providerName: "OpenAI", input: { messages: [{ role: "user", content: `tell me ${CANARY}` }], tools: null, parameters: {} }, output: { text: `here: ${CANARY}`, reasoning: "", toolCalls: [] } };
    await store.generations.commit([{ ...settled(record, { nanos: null }), observation: { generationId: record.id, workspaceId: "ws-1", sealed: sealObservedParts(secrets, content), createdAt: NOW } }]);
    // an outbox row whose generation id names no record
    await store.generations.commit([{ ...settled(generation("gen-other", "key-1", 0, { workspaceId: "ws-1" }), { nanos: null }), observation: { generationId: "gen-missing", workspaceId: "ws-1", sealed: sealObservedParts(secrets, content), createdAt: NOW } }]);
    const lines: Array<Record<string, unknown>> = [];
    const deps = { ...drainDeps(store, parts), logger: createLogger("debug", (l) => lines.push(JSON.parse(l))) };
    expect(await drainObservations(deps)).toEqual({ taken: 2, deliveries: 1 });
    const [job] = await store.jobs.list({ kind: OBSERVABILITY_DELIVER }, 0, 10);
    const seen = openObserved(secrets, (job!.payload as DeliverJob).sealed);
    expect(seen).toEqual(observedGeneration((await store.generations.get("gen-parts"))!, content));
    expect(seen).toMatchObject({ id: "gen-parts", model: "openai/gpt", keyName: "ci key", providerName: "OpenAI", endedAt: record.createdAt + 120, output: { text: `here: ${CANARY}` } });
    expect(lines).toEqual([expect.objectContaining({ level: "error", msg: "an observed generation has no record; it is not forwarded", generation: "gen-missing" })]);
    expect(await store.observationOutbox.take(10)).toEqual([]);
  });

  test("draining twice, or a row taken twice, delivers once; batches past the first; destinations read once per workspace", async () => {
    const store = await openStore();
    const { parts, reads } = fakeParts([destination({ id: "d1" })]);
    for (let i = 0; i < DRAIN_BATCH + 5; i++) await queue(store, observed({ id: `g${String(i).padStart(3, "0")}` }));
    const again = await store.observationOutbox.take(1);
    expect(await drainObservations(drainDeps(store, parts))).toEqual({ taken: DRAIN_BATCH + 5, deliveries: DRAIN_BATCH + 5 });
    expect(reads()).toBe(1);
    // a drain that died after its jobs but before removing its rows: the same rows again
    await store.generations.commit([{ ...settled(generation("replay", "k", 0), { nanos: null }), observation: { ...again[0]!, generationId: "g000" } }]);
    expect((await drainObservations(drainDeps(store, parts))).taken).toBe(1);
    expect(await store.jobs.count({ kind: OBSERVABILITY_DELIVER })).toBe(DRAIN_BATCH + 5);
  });

  test("a workspace that turned broadcast off forwards nothing; its rows go", async () => {
    const store = await openStore(false);
    const { parts } = fakeParts([destination()]);
    await queue(store, observed());
    expect(await drainObservations(drainDeps(store, parts))).toEqual({ taken: 1, deliveries: 0 });
    expect(await store.jobs.count({ kind: OBSERVABILITY_DELIVER })).toBe(0);
    expect(await store.observationOutbox.take(1)).toEqual([]);
  });

  test("without destinations wired, nothing is forwarded and the pump says so once", async () => {
    const store = await openStore();
    const lines: string[] = [];
    const pump = new OutboxPump(drainDeps(store, null, createLogger("warn", (l) => lines.push(l))), 60_000);
    await queue(store, observed({ id: "a" }));
    pump.start();
    await until("drained", async () => ((await store.observationOutbox.take(1)).length === 0 ? true : undefined));
    await queue(store, observed({ id: "b" }));
    pump.trigger();
    await until("drained again", async () => ((await store.observationOutbox.take(1)).length === 0 ? true : undefined));
    await pump.stop();
    expect(await store.jobs.count({})).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("no destinations");
  });

  test("a failing reader leaves the rows for the next drain", async () => {
    const store = await openStore();
    const { parts } = fakeParts([destination()]);
    let fail = true;
    const flaky: ObservabilityParts = { ...parts, destinations: { ...parts.destinations, enabledForWorkspace: async (ws) => (fail ? Promise.reject(new Error("db away")) : parts.destinations.enabledForWorkspace(ws)) } };
    await queue(store, observed());
    await expect(drainObservations(drainDeps(store, flaky))).rejects.toThrow("db away");
    expect(await store.observationOutbox.take(10)).toHaveLength(1);
    fail = false;
    expect(await drainObservations(drainDeps(store, flaky))).toEqual({ taken: 1, deliveries: 1 });
    expect(await store.jobs.count({ kind: OBSERVABILITY_DELIVER })).toBe(1);
  });
});

describe("observability.deliver", () => {
  const senderDeps = { http: async () => ({ kind: "failed" as const, reason: "unused", timedOut: false }), clock: () => NOW, allowPrivateUrls: false };
  const payloadFor = (d: Destination, g: ObservedGeneration = withCanary) => deliverJob(d.id, g.id, sealObserved(secrets, g), NOW).payload;
  const run = (kind: ReturnType<typeof deliverKind>, payload: unknown) => kind.run(payload, { job: {} as never, signal: new AbortController().signal });

  const outcomes: Array<[string, SendOutcome, (err: unknown) => void]> = [
    ["delivered: done", { kind: "delivered" }, (err) => expect(err).toBeUndefined()],
    ["retry with Retry-After: RetryAfter(seconds)", { kind: "retry", reason: "HTTP 429", afterSeconds: 7 }, (err) => {
      expect(err).toBeInstanceOf(RetryAfter);
      expect((err as RetryAfter).afterMs).toBe(7000);
      expect((err as Error).message).toBe("HTTP 429");
    }],
    ["retry without a delay: the backoff schedule", { kind: "retry", reason: "HTTP 503" }, (err) => {
      expect(err).toBeInstanceOf(Error);
      expect(err).not.toBeInstanceOf(RetryAfter);
      expect(err).not.toBeInstanceOf(PermanentFailure);
    }],
    ["failed: permanent, with the reason", { kind: "failed", reason: "HTTP 401: bad key" }, (err) => {
      expect(err).toBeInstanceOf(PermanentFailure);
      expect((err as Error).message).toBe("HTTP 401: bad key");
    }],
  ];
  for (const [name, outcome, check] of outcomes)
    test(name, async () => {
      const d = destination({ id: "d1" });
      const { parts, sent } = fakeParts([d], [outcome]);
      const err = await run(deliverKind({ secrets, senderDeps, parts }), payloadFor(d)).then(() => undefined, (e: unknown) => e);
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
    const { parts } = fakeParts([d], [{ kind: "retry", reason: "HTTP 429", afterSeconds: 120 }, { kind: "failed", reason: "HTTP 400: bad body" }]);
    await store.jobs.enqueue(deliverJob("d1", "g-retry", sealObserved(secrets, observed({ id: "g-retry" })), Date.now()));
    await store.jobs.enqueue(deliverJob("d1", "g-dead", sealObserved(secrets, observed({ id: "g-dead" })), Date.now() + 1));
    const runner = new JobRunner({ store: store.jobs, registry: jobRegistry([deliverKind({ secrets, senderDeps, parts })]), owner: "t/jobs-0", leaseMs: 5000, concurrency: 1, backoffMs: [60_000], pollMs: 20, logger: silentLogger, clock: Date.now });
    runner.start();
    try {
      await until("one dead, one waiting", async () => ((await store.jobs.count({ state: "dead" })) === 1 && (await store.jobs.count({ state: "pending" })) === 1 ? true : undefined));
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
