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
import { dispatchJob, dispatchKind, OBSERVABILITY_DISPATCH } from "../../../src/observability/jobs/dispatch-kind";
import type { ObservabilityParts } from "../../../src/observability/jobs/parts";
import { createSqliteStore } from "../../../src/store/sqlite";
import type { Store } from "../../../src/store/store";
import { tempDir } from "../../support/gateway";
import { workspace } from "../../store/contract/fixtures";
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
    destinations: { enabledForWorkspace: async (ws) => [...byId.values()].filter((d) => d.workspaceId === ws && d.enabled), byId: async (id) => byId.get(id) ?? null },
    senders: () => sender,
  };
  return { parts, byId, sent };
}

const withCanary = observed({
  id: "gen-canary",
  input: { messages: [{ role: "user", content: `tell me ${CANARY}` }], tools: null, parameters: {} },
  output: { text: `here: ${CANARY}`, toolCalls: [] },
});

const run = (kind: ReturnType<typeof dispatchKind>, payload: unknown) => kind.run(payload, { job: {} as never, signal: new AbortController().signal });

describe("observability.dispatch", () => {
  test("one sealed delivery job per matching destination, none twice, privacy applied before it is stored", async () => {
    const store = await openStore();
    const { parts } = fakeParts([
      destination({ id: "d-open" }),
      destination({ id: "d-private", privacyMode: true }),
      destination({ id: "d-other-key", apiKeyHashes: ["someone-else"] }),
      destination({ id: "d-filtered", filterRules: { groups: [{ rules: [{ field: "model", operator: "equals", value: "anthropic/claude" }] }] } }),
      destination({ id: "d-disabled", enabled: false }),
    ]);
    const kind = dispatchKind({ store, secrets, clock: () => NOW, logger: silentLogger, parts });
    const job = dispatchJob(secrets, withCanary, NOW);
    expect(JSON.stringify(job.payload)).not.toContain(CANARY);
    await run(kind, job.payload);
    await run(kind, job.payload); // a rerun adds nothing
    const jobs = await store.jobs.list({ kind: OBSERVABILITY_DELIVER }, 0, 10);
    expect(jobs.map((j) => j.key).sort()).toEqual(["d-open:gen-canary", "d-private:gen-canary"]);
    for (const j of jobs) {
      // sealed at rest: no byte of the stored payload is the prompt
      expect(JSON.stringify(j.payload)).not.toContain(CANARY);
      const opened = JSON.parse(await secrets.open((j.payload as { sealed: string }).sealed)) as DeliverJob;
      if (j.key === "d-private:gen-canary") {
        expect(JSON.stringify(opened)).not.toContain(CANARY);
        expect(opened.generation).toEqual({ ...withCanary, input: null, output: null });
      } else expect(opened.generation).toEqual(withCanary);
    }
  });

  test("a workspace that turned broadcast off forwards nothing", async () => {
    const store = await openStore(false);
    const { parts } = fakeParts([destination()]);
    await run(dispatchKind({ store, secrets, clock: () => NOW, logger: silentLogger, parts }), dispatchJob(secrets, observed(), NOW).payload);
    expect(await store.jobs.count({ kind: OBSERVABILITY_DELIVER })).toBe(0);
  });

  test("without destinations wired, nothing is forwarded and one warn line says so", async () => {
    const store = await openStore();
    const lines: string[] = [];
    const kind = dispatchKind({ store, secrets, clock: () => NOW, logger: createLogger("warn", (l) => lines.push(l)), parts: null });
    await run(kind, dispatchJob(secrets, observed(), NOW).payload);
    await run(kind, dispatchJob(secrets, observed({ id: "gen-2" }), NOW).payload);
    expect(await store.jobs.count({})).toBe(0);
    expect(lines).toHaveLength(1);
  });

  test("a payload sealed under another key is dead at once", async () => {
    const store = await openStore();
    const other = createSecretBox(new Uint8Array(32).fill(1));
    const kind = dispatchKind({ store, secrets, clock: () => NOW, logger: silentLogger, parts: fakeParts([]).parts });
    await expect(run(kind, dispatchJob(other, observed(), NOW).payload)).rejects.toBeInstanceOf(PermanentFailure);
    await expect(run(kind, { not: "sealed" })).rejects.toBeInstanceOf(PermanentFailure);
  });
});

describe("observability.deliver", () => {
  const senderDeps = { http: async () => ({ kind: "failed" as const, reason: "unused", timedOut: false }), clock: () => NOW, allowPrivateUrls: false };
  const payloadFor = (d: Destination, g: ObservedGeneration = withCanary) => deliverJob(secrets, { destination: d, generation: g }, NOW).payload;

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
    expect(JSON.stringify(sent)).not.toContain(CANARY);
  });

  test("through the runner: a 429 waits for its Retry-After, a refusal is dead with its reason", async () => {
    const store = await openStore();
    const d = destination({ id: "d1" });
    const { parts } = fakeParts([d], [{ kind: "retry", reason: "HTTP 429", afterSeconds: 120 }, { kind: "failed", reason: "HTTP 400: bad body" }]);
    await store.jobs.enqueue(deliverJob(secrets, { destination: d, generation: observed({ id: "g-retry" }) }, Date.now()));
    await store.jobs.enqueue(deliverJob(secrets, { destination: d, generation: observed({ id: "g-dead" }) }, Date.now() + 1));
    const runner = new JobRunner({ store: store.jobs, registry: jobRegistry([deliverKind({ secrets, senderDeps, parts })]), owner: "t/jobs-0", leaseMs: 5000, concurrency: 1, backoffMs: [60_000], pollMs: 20, logger: silentLogger, clock: Date.now });
    runner.start();
    try {
      for (let i = 0; i < 200 && (await store.jobs.count({ state: "pending" })) + (await store.jobs.count({ state: "running" })) > 1; i++) await Bun.sleep(10);
      for (let i = 0; i < 200 && (await store.jobs.count({ state: "dead" })) < 1; i++) await Bun.sleep(10);
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

test("the dispatch job is keyed by its generation", () => {
  expect(dispatchJob(secrets, observed({ id: "g9" }), NOW)).toMatchObject({ kind: OBSERVABILITY_DISPATCH, key: "observability.dispatch:g9", runAt: NOW });
});
