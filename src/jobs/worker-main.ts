import { loadMasterKey } from "../crypto/master-key";
import { createSecretBox } from "../crypto/secret-box";
import { createRouterState } from "../gateway/routing/router-state";
import { createLogger, type Logger } from "../logger";
import { destinationReader } from "../observability/destination-reader";
import { OutboxPump } from "../observability/jobs/outbox-pump";
import type { ObservabilityParts } from "../observability/jobs/parts";
import { senderDepsOf } from "../observability/sender-http";
import { senderFor } from "../observability/senders";
import { openStore } from "../store/open";
import type { Store } from "../store/store";
import { logOnlyTelemetry } from "../telemetry/telemetry";
import { productionJobKinds } from "./kinds";
import type { JobDeps } from "./kinds/job-deps";
import { ensureRecurringJobs } from "./recurring";
import { type JobKind, jobRegistry } from "./registry";
import { JobRunner } from "./runner";
import type { FromWorker, ToWorker } from "./worker-protocol";

/** A worker's own connections: a small pool on PostgreSQL is enough for `concurrency` jobs and their leases. */
const WORKER_POOL_SIZE = 3;

/**
 * How often worker 0 copies the SQLite WAL back into the database, in the process's place (the
 * serving connection defers its own checkpoints: Store.deferCheckpoints). At SQLite's default of
 * 1,000 pages, a busy gateway's WAL is copied several times a second anyway.
 */
const CHECKPOINT_EVERY_MS = 250;

/**
 * `pump`: the observation outbox's drain, in worker 0 only (one per process is enough; a second
 * would only repeat its work); `checkpoints`: worker 0's timer for the WAL (SQLite)
 */
type Started = { runner: JobRunner; store: Store; pump: OutboxPump | null; checkpoints: ReturnType<typeof setInterval> | undefined };

type JobModule = { jobKinds?: (deps: JobDeps) => JobKind[]; observabilityParts?: (deps: JobDeps) => ObservabilityParts };

/**
 * Test modules: each exports `jobKinds(deps)` (more kinds for the registry) and/or
 * `observabilityParts(deps)` (the destinations and senders forwarding uses instead of the
 * destination reader and sender registry wired below).
 */
async function loadModules(specifiers: string[], deps: JobDeps): Promise<{ kinds: JobKind[]; parts: ObservabilityParts | undefined }> {
  const kinds: JobKind[] = [];
  let parts: ObservabilityParts | undefined;
  for (const specifier of specifiers) {
    const mod = (await import(specifier)) as JobModule;
    if (typeof mod.jobKinds !== "function" && typeof mod.observabilityParts !== "function")
      throw new Error(`${specifier} exports neither jobKinds(deps) nor observabilityParts(deps)`);
    if (mod.jobKinds) kinds.push(...mod.jobKinds(deps));
    if (mod.observabilityParts) parts = mod.observabilityParts(deps);
  }
  return { kinds, parts };
}

/**
 * The body of a job worker thread: opens its own store connection (SQLite: the same WAL file;
 * PostgreSQL: its own pool), builds the registry and runs a JobRunner until told to stop. Worker 0
 * also forwards the observation outbox's generations (OutboxPump), on every wake-up and every poll interval.
 */
export function runJobWorker(post: (message: FromWorker) => void): (message: ToWorker) => Promise<void> {
  let started: Promise<Started | null> = Promise.resolve(null);
  return async (message) => {
    switch (message.type) {
      case "start":
        started = start(message, post).then(
          (s) => {
            post({ type: "started" });
            return s;
          },
          (err: unknown) => {
            post({ type: "failed", error: err instanceof Error ? err.message : String(err) });
            return null;
          },
        );
        return;
      case "wake": {
        const s = await started;
        s?.runner.wake();
        s?.pump?.trigger();
        return;
      }
      case "outbox": {
        // the runner is not woken: a wake-up makes it look at the queue, a lease statement that would take nothing
        (await started)?.pump?.trigger();
        return;
      }
      case "stop": {
        const s = await started;
        if (s) {
          clearInterval(s.checkpoints);
          await s.pump?.stop();
          await s.runner.stop(message.graceMs);
          // the deliveries the runner ended: sent, or stored as jobs, and their rows gone
          await s.pump?.finish();
          await s.store.close().catch(() => undefined);
        }
        post({ type: "stopped" });
      }
    }
  };
}

async function start({ config, index, modules, writeLock }: Extract<ToWorker, { type: "start" }>, post: (message: FromWorker) => void): Promise<Started> {
  const database = config.database.dialect === "postgres" ? { ...config.database, poolSize: WORKER_POOL_SIZE } : config.database;
  // the process that started this thread has migrated the database
  const store = await openStore(database, { migrate: false, writeLock });
  // checkpoints run on worker 0's timer, outside any write: one run by SQLite at the end of a
  // COMMIT would hold the process's write lock (and every serving-thread write) while it copies
  store.deferCheckpoints?.();
  const logger = createLogger(config.logLevel);
  // Circuits and live figures of the endpoints this worker calls (video submissions) live per
  // worker: no shared state, so another worker, instance or the HTTP process neither sees nor
  // feeds them, and a restart forgets them.
  const router = createRouterState(config, Date.now);
  const telemetry = logOnlyTelemetry(logger);
  router.circuits.onTransition((endpoint, change) => telemetry.circuitChanged(endpoint, change));
  const observability = { destinations: destinationReader(store, { config }), senders: senderFor };
  const base: JobDeps = {
    store,
    config,
    logger,
    clock: Date.now,
    releaseReservation: (id) => post({ type: "release-reservation", id }),
    router,
    telemetry,
    observability,
    secrets: createSecretBox(loadMasterKey(config)),
  };
  const extra = await loadModules(modules, base);
  // tests replace the destinations and senders through a job module's `observabilityParts`
  const deps: JobDeps = extra.parts ? { ...base, observability: extra.parts } : base;
  const registry = jobRegistry([...productionJobKinds(deps), ...extra.kinds]);
  await ensureRecurringJobs(store.jobs, registry, Date.now());
  const { leaseMs, concurrency, backoffMs, pollMs } = config.jobs;
  const runner = new JobRunner({
    store: store.jobs,
    registry,
    owner: `${config.instanceId}/jobs-${index}`,
    leaseMs,
    concurrency,
    backoffMs,
    pollMs,
    logger,
    clock: Date.now,
  });
  runner.start();
  const pump =
    index === 0
      ? new OutboxPump(
          {
            store,
            secrets: deps.secrets!,
            senderDeps: senderDepsOf(deps),
            clock: Date.now,
            logger,
            parts: deps.observability,
            owner: `${config.instanceId}/outbox`,
            claimMs: leaseMs,
            runner,
          },
          pollMs,
          () => runner.wake(),
        )
      : null;
  pump?.start();
  const checkpoints = index === 0 && store.checkpoint ? setInterval(() => void checkpointQuietly(store, logger), CHECKPOINT_EVERY_MS) : undefined;
  return { runner, store, pump, checkpoints };
}

/** A checkpoint that fails (the database busy or gone) is tried again at the next tick; the serving connection's backstop bounds the WAL meanwhile. */
async function checkpointQuietly(store: Store, logger: Logger): Promise<void> {
  try {
    await store.checkpoint?.();
  } catch (err) {
    logger.debug("WAL checkpoint failed; tried again at the next tick", { error: String(err) });
  }
}
