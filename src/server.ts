import type { Server } from "bun";
import { createApp } from "./app";
import type { AppContext } from "./app-context";
import { BudgetAlerts } from "./billing/budget-alerts";
import { type ReservationLeases, startReservationLeases } from "./billing/reservation-leases";
import { type BootstrapResult, bootstrap } from "./bootstrap";
import { buildCatalog } from "./catalog/build-catalog";
import { rebuildFromGenerations } from "./catalog/rebuild-stats";
import type { Catalog } from "./catalog/types";
import { unpricedEndpoints } from "./catalog/unpriced";
import { type Config, configWarnings } from "./config";
import { planReload } from "./config-reload";
import { loadMasterKey } from "./crypto/master-key";
import { createSecretBox } from "./crypto/secret-box";
import { ensureDataDir } from "./data-dir";
import { createDrain } from "./drain";
import { GenerationWriter } from "./gateway/generation-writer";
import { circuitStates } from "./gateway/routing/circuit-states";
import { createRouterState } from "./gateway/routing/router-state";
import { type JobWorkers, startJobWorkers } from "./job-workers";
import { jobWakeups, withJobWakeups } from "./jobs/enqueue-wakeup";
import { throttledWakeup } from "./jobs/throttled-wakeup";
import { createLogger, type Logger } from "./logger";
import { destinationTargets } from "./observability/capture/destination-targets";
import { destinationReader } from "./observability/destination-reader";
import { sealObservedBatch } from "./observability/jobs/observed-payload";
import { senderFor } from "./observability/senders";
import type { HostLookup } from "./outbound/host-lookup";
import { deepenListenBacklog } from "./process-limits/listen-backlog";
import { raiseOpenFileLimit } from "./process-limits/open-files";
import { endStartupJitPolicy } from "./process-limits/startup-jit";
import { STARTUP_SETTLE_MS } from "./process-limits/startup-memory";
import { warmUpstreamLibraries } from "./providers/apis";
import { createSharedState } from "./shared-state";
import { withReadCache } from "./store/cached-store";
import { openStore } from "./store/open";
import { createTelemetry } from "./telemetry/create-telemetry";
import { NO_JOB_STATS } from "./telemetry/job-metrics";
import { RefusalRecorder } from "./telemetry/refusal-recorder";
import { restoreVideoReservations } from "./videos/reservation-restore";

export type RunningGateway = {
  url: string;
  port: number;
  ctx: AppContext;
  boot: BootstrapResult;
  server: Server<undefined>;
  /**
   * Settles once the job worker threads started (they start after the server listens); rejects
   * when one could not, which `serve` ends the process for.
   */
  jobWorkersStarted: Promise<void>;
  /**
   * Applies a freshly loaded configuration (SIGHUP) to new requests: providers, models and
   * routing settings. `load` throwing (a bad file) keeps the running configuration; either way
   * the outcome is logged.
   */
  reload(load: () => Config): ReloadOutcome;
  /**
   * Closes the server, its job workers and its connections. `graceful`: `/ready` answers 503 at
   * once and requests in flight finish, all within `graceMs` of the call; with `quietMs` the
   * listener first stays open and serves until no request came for that long, or half of
   * `graceMs` passed (src/drain.ts).
   */
  stop(opts?: StopOptions): Promise<void>;
};

export type StopOptions = { graceful?: boolean; graceMs?: number; quietMs?: number };

export type ReloadOutcome = { ok: true; models: number; restartNeeded: string[] } | { ok: false; error: string };

/** What new requests read; a reload replaces the pair in one assignment. */
type Settings = Readonly<{ config: Config; catalog: Catalog }>;

type ContextParts = {
  ctx: AppContext;
  replaceSettings(next: Settings): void;
  catalogCreated: number;
  /** the serving connection leaves SQLite checkpoints to job worker 0 (Store.deferCheckpoints) */
  deferCheckpoints(): void;
  /** SQLite: the serving connection's write lock, which the job workers' connections share (Store.writeLock) */
  writeLock: SharedArrayBuffer | undefined;
};

export type StartOptions = {
  hostname?: string;
  logger?: Logger;
  clock?: () => number;
  /** Bun's idle timeout; tests lower it to prove long requests are not cut */
  idleTimeoutSeconds?: number;
  /** modules adding job kinds to the workers' registry (tests) */
  jobModules?: string[];
  /** the resolver for user-supplied URLs; tests answer names without the system resolver */
  lookup?: HostLookup;
};

async function buildContext(config: Config, opts: StartOptions = {}): Promise<ContextParts> {
  if (config.database.dialect === "sqlite") ensureDataDir(config);
  const clock = opts.clock ?? Date.now;
  const logger = opts.logger ?? createLogger(config.logLevel);
  const shared = await createSharedState({
    redisUrl: config.redis?.url,
    prefix: config.redis?.prefix ?? "",
    instanceId: config.instanceId,
    logger,
    rateLeaseMs: config.reservationLeaseMs,
    clock,
  });
  const wakeups = jobWakeups();
  const opened = await openStore(config.database);
  const store = withJobWakeups(withReadCache(opened, shared.bus, { clock }), wakeups);
  const router = createRouterState(config, clock, shared);
  // generations to forward committed with their records wake this process's job workers, which
  // drain them; folded to one wake-up per OUTBOX_WAKE_MS under load
  const secrets = createSecretBox(loadMasterKey(config));
  const outboxWakeups = jobWakeups();
  const budgetAlerts = new BudgetAlerts(store, clock, logger);
  const generations = new GenerationWriter(store, logger, {
    onCommitted: (records) => budgetAlerts.committed(records),
    onOutboxCommitted: throttledWakeup(() => outboxWakeups.notify(), OUTBOX_WAKE_MS),
    sealObservations: (entries) => sealObservedBatch(secrets, entries),
    // one instance on SQLite: every read of generations waits for this writer's settled(); on
    // PostgreSQL other instances read them too, so a hit's record is durable before its answer ends
    deferCostFree: config.database.dialect === "sqlite",
  });
  // a reload keeps the creation time of yaml models, so listings do not reorder on every SIGHUP
  const catalogCreated = Math.floor(Date.now() / 1000);
  // requests read config and catalog through these getters when they start; one in flight
  // keeps the endpoints it planned with, a new one sees whatever the last reload installed
  let settings: Settings = { config, catalog: buildCatalog(config, catalogCreated) };
  warmUpstreamLibraries(settings.catalog.providers());
  const telemetry = createTelemetry(logger, {
    circuits: () => circuitStates(router, settings.catalog),
    reservationsHeld: () => store.reservations.openCount().catch(() => 0),
    recordsPending: () => generations.pending,
    databaseUp: () => store.ready().catch(() => false),
    jobs: () => store.jobs.stats(clock()).catch(() => NO_JOB_STATS),
    responseCache: () => store.responseCache.stats(clock()).catch(() => ({ entries: 0, bytes: 0 })),
  });
  router.circuits.onTransition((endpoint, change) => telemetry.circuitChanged(endpoint, change));
  const refusals = new RefusalRecorder(store.refusals, logger);
  const ctx: AppContext = {
    get config() {
      return settings.config;
    },
    get catalog() {
      return settings.catalog;
    },
    store,
    shared,
    logger,
    generations,
    telemetry,
    budgetAlerts,
    refusals,
    reservationLease: { instanceId: config.instanceId, leaseMs: config.reservationLeaseMs },
    clock,
    router,
    jobWakeups: wakeups,
    outboxWakeups,
    secrets,
    lookup: opts.lookup,
    // the store is the cached one: a workspace's enabled destinations come from its read cache
    destinationTargets: await destinationTargets(store, config, opts.jobModules),
    observability: { destinations: destinationReader(store, { config, secrets }), senders: senderFor },
  };
  return {
    ctx,
    catalogCreated,
    replaceSettings: (next) => (settings = next),
    deferCheckpoints: () => opened.deferCheckpoints?.(),
    writeLock: opened.writeLock,
  };
}

function warnUnpriced(ctx: AppContext): void {
  const unpriced = unpricedEndpoints(ctx.catalog);
  if (unpriced.length > 0)
    ctx.logger.warn("endpoints without pricing serve for free and never count against key limits", {
      endpoints: unpriced.slice(0, 50),
      count: unpriced.length,
    });
}

/**
 * Circuits and live figures are keyed by endpoint id (`provider/upstream model`), so an
 * endpoint that is still there after the reload keeps its history; only the thresholds move.
 */
function reloadSettings(parts: ContextParts, load: () => Config): ReloadOutcome {
  const { ctx } = parts;
  let next: Settings;
  let restartNeeded: string[];
  try {
    const plan = planReload(ctx.config, load());
    next = { config: plan.config, catalog: buildCatalog(plan.config, parts.catalogCreated) };
    restartNeeded = plan.restartNeeded;
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    ctx.logger.error("configuration reload failed: the running configuration stays", { file: ctx.config.configPath, errors: error.split("\n") });
    return { ok: false, error };
  }
  const { config, catalog } = next;
  ctx.router.circuits.retune(config.routing.circuitFailures, config.routing.circuitCooldownMs);
  parts.replaceSettings(next);
  warmUpstreamLibraries(catalog.providers());
  const models = catalog.models().length;
  ctx.logger.info("configuration reloaded", { file: config.configPath, models, providers: catalog.providers().length });
  if (restartNeeded.length > 0) ctx.logger.warn("changed settings apply only after a restart", { settings: restartNeeded });
  warnUnpriced(ctx);
  return { ok: true, models, restartNeeded };
}

/**
 * Reservations left by requests that can no longer finish. SQLite: one process owns the file,
 * so whatever a previous run reserved died with it, but for the video jobs it admitted, which
 * go on: theirs are held again. PostgreSQL: other live instances hold
 * reservations too, so only those whose lease ran out are released (by every instance, all
 * the time), never at start.
 */
async function releaseOrphanedReservations(ctx: AppContext): Promise<ReservationLeases> {
  if (ctx.store.dialect === "sqlite") {
    const stale = await ctx.store.reservations.releaseAll();
    if (stale > 0) ctx.logger.warn("released reservations of a previous process", { count: stale });
    // except those of video jobs still running: their spend is to come
    const held = await restoreVideoReservations(ctx.store, ctx.clock());
    if (held > 0) ctx.logger.info("held again the reservations of video jobs of a previous process", { count: held });
  }
  return startReservationLeases(ctx.store.reservations, ctx.reservationLease, ctx.logger, ctx.clock);
}

/** The most often forwarded generations wake the job workers (the longest forwarding waits for a wake-up). */
const OUTBOX_WAKE_MS = 10;

/** What workers leave of the stop's grace period for closing their store and the process for exiting. */
const JOB_WORKER_MARGIN_MS = 1_500;

/**
 * The longest a running job is given to finish at a stop, however long the HTTP drain: a job
 * given back is run again by the next worker without counting the attempt, so waiting longer
 * saves nothing a client would see, while an answer cut short is lost to its client.
 */
const JOB_STOP_MS = 10_000;

/** Resolves when `promise` does or after `ms`, whichever is first, leaving no timer behind. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: Timer | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))))]);
  clearTimeout(timer);
}

/** The job worker threads this configuration runs: WORKERS of them, none on an in-memory database (a worker's own connection would open another, empty one). */
const workerCount = (config: Config): number => (config.database.dialect === "sqlite" && config.database.path === ":memory:" ? 0 : config.jobs.workers);

/** WORKERS job worker threads, woken by every job this process enqueues; none with WORKERS=0. */
async function startWorkers(ctx: AppContext, modules: string[] | undefined, writeLock: SharedArrayBuffer | undefined): Promise<JobWorkers | undefined> {
  if (ctx.config.jobs.workers === 0) return undefined;
  if (workerCount(ctx.config) === 0) {
    ctx.logger.warn("background jobs do not run on an in-memory database (DATABASE_URL=:memory:); use a file");
    return undefined;
  }
  const releaseReservation = (id: string) =>
    void ctx.store.reservations
      .release(id)
      .catch((err: unknown) => ctx.logger.warn("could not release a reservation a job settled", { reservation: id, error: String(err) }));
  const workers = await startJobWorkers(ctx.config, { count: ctx.config.jobs.workers, logger: ctx.logger, modules, releaseReservation, writeLock });
  ctx.jobWakeups.listen(() => workers.wake());
  ctx.outboxWakeups.listen(() => workers.outboxFilled());
  return workers;
}

export async function startGateway(config: Config, opts: StartOptions = {}): Promise<RunningGateway> {
  const parts = await buildContext(config, opts);
  const { ctx } = parts;
  for (const warning of configWarnings(config)) ctx.logger.warn(warning);
  const boot = await bootstrap(ctx.store, { adminKey: config.adminKey, now: ctx.clock() });
  const leases = await releaseOrphanedReservations(ctx);
  const unpriced = unpricedEndpoints(ctx.catalog);
  if (unpriced.length > 0)
    ctx.logger.warn("endpoints without pricing serve for free and never count against spending limits (rate limits still apply)", {
      endpoints: unpriced.slice(0, 50),
      count: unpriced.length,
    });
  // other instances hold these records already: replaying them must not be sent to them again
  const replayed = await ctx.router.stats.quietly(() => rebuildFromGenerations(ctx.router.stats, ctx.store.generations, ctx.clock()));
  if (replayed > 0) ctx.logger.debug("live endpoint stats rebuilt from generations", { count: replayed });
  const openFiles = raiseOpenFileLimit();
  const drain = createDrain();
  const app = createApp(ctx, { draining: drain.draining });
  app.onRequest(({ request, set }) => drain.onRequest(request, set));
  app.listen({
    hostname: opts.hostname ?? config.host,
    port: config.port,
    // the app answers 413 in the standard error shape (content-length, or measured for chunked
    // bodies); Bun's own hard stop at twice the limit keeps memory bounded before that
    maxRequestBodySize: Math.floor(config.server.maxBodyMb * 1024 * 1024) * 2,
    // long generations must not be cut; streaming routes also disable the timeout per request
    idleTimeout: opts.idleTimeoutSeconds ?? 255,
  });
  const server = app.server;
  if (!server) throw new Error("server failed to start");
  const port = server.port ?? config.port;
  // Bun's 512 waiting connections overflow into client resets while the event loop is busy for a moment
  const listenBacklog = deepenListenBacklog(port);
  ctx.logger.info("gateway listening", {
    port,
    database: config.database.dialect === "sqlite" ? config.database.path : "postgres",
    data_dir: config.dataDir,
    shared_state: ctx.shared.kind,
    instance: config.instanceId,
    max_upstream_requests: config.maxUpstreamRequests,
    open_files: openFiles,
    listen_backlog: listenBacklog?.backlog ?? null,
  });
  endStartupJitPolicy();
  // The job workers start a moment after the gateway listens: on 2 cores their threads' start
  // (about 60 ms of CPU) delayed the first answers by 20 ms, and nothing a request needs waits for
  // them; jobs enqueued meanwhile are durable, and a worker's runner and outbox pump look at the
  // queue and the outbox as they start. A stop before then starts none.
  const startup = new AbortController();
  const workersStarted = Bun.sleep(STARTUP_SETTLE_MS)
    .then(() => (startup.signal.aborted ? undefined : startWorkers(ctx, opts.jobModules, parts.writeLock)))
    .then((workers) => {
      // worker 0 checkpoints the SQLite WAL from here on (worker-main.ts): no request waits behind one
      if (workers) parts.deferCheckpoints();
      return workers;
    });
  const jobWorkersStarted = workersStarted.then(
    () => undefined,
    (err: unknown) => {
      ctx.logger.error("job workers could not start", { error: err instanceof Error ? err.message : String(err) });
      throw err;
    },
  );
  // handled here for an embedder that never reads it; `serve` ends the process on it
  jobWorkersStarted.catch(() => {});
  return {
    url: `http://${server.hostname === "0.0.0.0" ? "127.0.0.1" : server.hostname}:${port}`,
    port,
    ctx,
    boot,
    server,
    jobWorkersStarted,
    reload: (load) => reloadSettings(parts, load),
    async stop({ graceful = false, graceMs = 10_000, quietMs = 0 } = {}) {
      const start = performance.now();
      const deadline = start + graceMs;
      drain.begin();
      startup.abort();
      // workers finish or give back their jobs while the server finishes its answers
      const workersStopped = workersStarted.then(
        (workers) => workers?.stop(Math.max(0, Math.min(graceMs, JOB_STOP_MS) - JOB_WORKER_MARGIN_MS)),
        () => undefined,
      );
      if (graceful) {
        if (quietMs > 0) {
          // half the grace at most: a request taken just before the listener closes still has the other half
          const ended = await drain.quiet(server, quietMs, start + graceMs / 2);
          ctx.logger.info("drain: stopped listening", {
            reason: ended === "quiet" ? "no request came" : "half the grace passed",
            after_ms: Math.round(performance.now() - start),
          });
        }
        await within(server.stop(false), deadline - performance.now());
      }
      await server.stop(true);
      await workersStopped;
      await ctx.generations.settled();
      await ctx.refusals.settled();
      await ctx.budgetAlerts.settled();
      await leases.stop();
      await ctx.shared.close();
      await ctx.store.close();
    },
  };
}
