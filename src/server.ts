import type { Server } from "bun";
import { createApp } from "./app";
import type { AppContext } from "./app-context";
import { bootstrap, type BootstrapResult } from "./bootstrap";
import { configWarnings, ensureDataDir, type Config } from "./config";
import { createLogger, type Logger } from "./logger";
import { openStore } from "./store/open";
import { withReadCache } from "./store/cached-store";
import { createSharedState } from "./shared-state";
import { buildCatalog } from "./catalog/build-catalog";
import { rebuildFromGenerations } from "./catalog/rebuild-stats";
import { unpricedEndpoints } from "./catalog/unpriced";
import { createRouterState } from "./gateway/routing/router-state";
import { GenerationWriter } from "./gateway/generation-writer";
import { createSecretBox } from "./crypto/secret-box";
import { loadMasterKey } from "./crypto/master-key";
import { startReservationLeases, type ReservationLeases } from "./billing/reservation-leases";
import { createTelemetry } from "./telemetry/telemetry";
import { circuitStates } from "./telemetry/circuit-states";
import { startResponsePurge } from "./gateway/response-purge";
import type { HostLookup } from "./jobs/outbound/host-lookup";

export type RunningGateway = {
  url: string;
  port: number;
  ctx: AppContext;
  boot: BootstrapResult;
  server: Server<undefined>;
  /** `graceful`: let requests in flight finish (up to `graceMs`) before closing */
  stop(opts?: { graceful?: boolean; graceMs?: number }): Promise<void>;
};

export type StartOptions = {
  hostname?: string;
  logger?: Logger;
  clock?: () => number;
  /** Bun's idle timeout; tests lower it to prove long requests are not cut */
  idleTimeoutSeconds?: number;
  /** the resolver for user-supplied URLs; tests answer names without the system resolver */
  lookup?: HostLookup;
};

export async function buildContext(config: Config, opts: StartOptions = {}): Promise<AppContext> {
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
  const store = withReadCache(await openStore(config.database), shared.bus, { clock });
  const catalog = buildCatalog(config);
  const router = createRouterState(config, clock, shared);
  const generations = new GenerationWriter(store, logger);
  const telemetry = createTelemetry(logger, {
    circuits: () => circuitStates(router, catalog),
    reservationsHeld: () => store.reservations.openCount().catch(() => 0),
    recordsPending: () => generations.pending,
    databaseUp: () => store.ready().catch(() => false),
  });
  router.circuits.onTransition((endpoint, change) => telemetry.circuitChanged(endpoint, change));
  return {
    config,
    store,
    shared,
    logger,
    generations,
    telemetry,
    reservationLease: { instanceId: config.instanceId, leaseMs: config.reservationLeaseMs },
    clock,
    catalog,
    router,
    secrets: createSecretBox(loadMasterKey(config)),
    lookup: opts.lookup,
  };
}

/**
 * Reservations left by requests that can no longer finish. SQLite: one process owns the file,
 * so whatever a previous run reserved died with it. PostgreSQL: other live instances hold
 * reservations too, so only those whose lease ran out are released (by every instance, all
 * the time), never at start.
 */
async function releaseOrphanedReservations(ctx: AppContext): Promise<ReservationLeases> {
  if (ctx.store.dialect === "sqlite") {
    const stale = await ctx.store.reservations.releaseAll();
    if (stale > 0) ctx.logger.warn("released reservations of a previous process", { count: stale });
  }
  return startReservationLeases(ctx.store.reservations, ctx.reservationLease, ctx.logger, ctx.clock);
}

export async function startGateway(config: Config, opts: StartOptions = {}): Promise<RunningGateway> {
  const ctx = await buildContext(config, opts);
  for (const warning of configWarnings(config)) ctx.logger.warn(warning);
  const boot = await bootstrap(ctx.store, { adminKey: config.adminKey, now: ctx.clock() });
  const leases = await releaseOrphanedReservations(ctx);
  const purge = startResponsePurge(ctx.store.responses, ctx.logger, ctx.clock);
  const unpriced = unpricedEndpoints(ctx.catalog);
  if (unpriced.length > 0)
    ctx.logger.warn("endpoints without pricing serve for free and never count against spending limits (rate limits still apply)", { endpoints: unpriced.slice(0, 50), count: unpriced.length });
  // other instances hold these records already: replaying them must not be sent to them again
  const replayed = await ctx.router.stats.quietly(() => rebuildFromGenerations(ctx.router.stats, ctx.store.generations, ctx.clock()));
  if (replayed > 0) ctx.logger.debug("live endpoint stats rebuilt from generations", { count: replayed });
  const app = createApp(ctx);
  app.listen({
    hostname: opts.hostname ?? process.env.HOST ?? "0.0.0.0",
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
  ctx.logger.info("gateway listening", {
    port,
    database: config.database.dialect === "sqlite" ? config.database.path : "postgres",
    shared_state: ctx.shared.kind,
    instance: config.instanceId,
  });
  return {
    url: `http://${server.hostname === "0.0.0.0" ? "127.0.0.1" : server.hostname}:${port}`,
    port,
    ctx,
    boot,
    server,
    async stop({ graceful = false, graceMs = 10_000 } = {}) {
      if (graceful) await Promise.race([server.stop(false), Bun.sleep(graceMs)]);
      await server.stop(true);
      await ctx.generations.settled();
      await leases.stop();
      await purge.stop();
      await ctx.shared.close();
      await ctx.store.close();
    },
  };
}
