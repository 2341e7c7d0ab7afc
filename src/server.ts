import type { Server } from "bun";
import { createApp } from "./app";
import type { AppContext } from "./app-context";
import { bootstrap, type BootstrapResult } from "./bootstrap";
import { ensureDataDir, type Config } from "./config";
import { createLogger, type Logger } from "./logger";
import { createSqliteStore } from "./store/sqlite";
import { buildCatalog } from "./catalog/build-catalog";
import { rebuildFromGenerations } from "./catalog/rebuild-stats";
import { unpricedEndpoints } from "./catalog/unpriced";
import { warmTokenizer } from "./billing/tokenizer";
import { createRouterState } from "./gateway/routing/router-state";
import { GenerationWriter } from "./gateway/generation-writer";
import { createSecretBox } from "./crypto/secret-box";
import { loadMasterKey } from "./crypto/master-key";

export type RunningGateway = {
  url: string;
  port: number;
  ctx: AppContext;
  boot: BootstrapResult;
  server: Server<undefined>;
  /** `graceful`: let requests in flight finish (up to `graceMs`) before closing */
  stop(opts?: { graceful?: boolean; graceMs?: number }): Promise<void>;
};

export type StartOptions = { hostname?: string; logger?: Logger; clock?: () => number; /** Bun's idle timeout; tests lower it to prove long requests are not cut */ idleTimeoutSeconds?: number };

export function buildContext(config: Config, opts: StartOptions = {}): AppContext {
  ensureDataDir(config);
  const store = createSqliteStore(config.databasePath);
  const clock = opts.clock ?? Date.now;
  const logger = opts.logger ?? createLogger(config.logLevel);
  return {
    config,
    store,
    logger,
    generations: new GenerationWriter(store, logger),
    clock,
    catalog: buildCatalog(config),
    router: createRouterState(config, clock),
    secrets: createSecretBox(loadMasterKey(config)),
  };
}

export async function startGateway(config: Config, opts: StartOptions = {}): Promise<RunningGateway> {
  const ctx = buildContext(config, opts);
  const boot = bootstrap(ctx.store, { adminKey: config.adminKey, now: ctx.clock() });
  // single-process SQLite deployment: whatever was reserved before this start belongs to requests that died with it
  const stale = ctx.store.reservations.clear();
  if (stale > 0) ctx.logger.warn("released reservations of a previous process", { count: stale });
  const unpriced = unpricedEndpoints(ctx.catalog);
  if (unpriced.length > 0)
    ctx.logger.warn("endpoints without pricing serve for free and never count against key limits", { endpoints: unpriced.slice(0, 50), count: unpriced.length });
  const replayed = rebuildFromGenerations(ctx.router.stats, ctx.store.generations, ctx.clock());
  if (replayed > 0) ctx.logger.debug("live endpoint stats rebuilt from generations", { count: replayed });
  void warmTokenizer();
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
  ctx.logger.info("gateway listening", { port, database: config.databasePath });
  return {
    url: `http://${server.hostname === "0.0.0.0" ? "127.0.0.1" : server.hostname}:${port}`,
    port,
    ctx,
    boot,
    server,
    async stop({ graceful = false, graceMs = 10_000 } = {}) {
      if (graceful) await Promise.race([server.stop(false), Bun.sleep(graceMs)]);
      await server.stop(true);
      ctx.generations.flush();
      ctx.store.close();
    },
  };
}
