import { ConfigError, loadConfig } from "../config";
import { DRAIN_QUIET_MS } from "../drain";
import { releaseStartupMemorySoon } from "../process-limits/startup-memory";
import { UPSTREAM_REQUESTS_VARIABLE } from "../process-limits/upstream-requests";
import { type RunningGateway, startGateway } from "../server";
import { auditCommand } from "./audit";
import { backupCommand } from "./backup";
import { configCheckCommand, keysCommand, migrateCommand, versionCommand } from "./commands";
import { withConfigPath } from "./config-path";
import { healthcheckCommand } from "./healthcheck";
import { jobsCommand } from "./jobs";
import { scimCommand } from "./scim";
import { USAGE, UsageError } from "./usage";
import { usersCommand } from "./users";
import { workerCommand } from "./worker";

type Env = Record<string, string | undefined>;

const out = (line: string) => process.stdout.write(`${line}\n`);

async function serve(env: Env): Promise<void> {
  // SIGHUP would end the process (exit 129); one that arrives while starting is applied once listening
  let gateway: RunningGateway | undefined;
  let reloadPending = false;
  process.on("SIGHUP", () => {
    if (gateway) gateway.reload(() => loadConfig(env));
    else reloadPending = true;
  });
  const config = loadConfig(env);
  gateway = await startGateway(config);
  releaseStartupMemorySoon();
  const running = gateway;
  let stopping = false;
  const shutdown = (signal: "SIGTERM" | "SIGINT") => async () => {
    // a second signal changes nothing: the drain under way already has its deadline
    if (stopping) return;
    stopping = true;
    // SIGTERM comes from what runs the gateway behind a balancer (Kubernetes, Docker, systemd): the
    // listener stays open while traffic still comes (src/drain.ts). SIGINT is someone at a terminal:
    // stop accepting at once. Either way answers in flight finish and their generations are recorded.
    const quietMs = signal === "SIGTERM" ? DRAIN_QUIET_MS : 0;
    running.ctx.logger.info("draining: /ready answers 503", { signal, grace_seconds: config.shutdownGraceSeconds, quiet_ms: quietMs });
    await running.stop({ graceful: true, graceMs: config.shutdownGraceSeconds * 1000, quietMs });
    process.exit(0);
  };
  // before the lines that say it is up: a stop sent on reading them must find the handlers
  process.on("SIGINT", shutdown("SIGINT"));
  process.on("SIGTERM", shutdown("SIGTERM"));
  // background jobs that cannot run are not served around: the process ends, as a failed start did
  running.jobWorkersStarted.catch(async () => {
    if (stopping) return;
    stopping = true;
    await running.stop();
    process.exit(1);
  });
  if (gateway.boot.createdManagementKey) {
    out("Created the initial management key. It is shown only this once; store it now:");
    out(`  ${gateway.boot.createdManagementKey}`);
  }
  out(`gateway listening on port ${gateway.port}${config.database.dialect === "sqlite" ? ` (data directory ${config.dataDir})` : ""}`);
  if (reloadPending) gateway.reload(() => loadConfig(env));
  if (!env[UPSTREAM_REQUESTS_VARIABLE])
    gateway.ctx.logger.warn(
      `could not start again with ${UPSTREAM_REQUESTS_VARIABLE} set: at most ${config.maxUpstreamRequests} upstream requests run at once, the rest wait; set the variable where the gateway is started`,
    );
}

async function main(argv: string[]): Promise<void> {
  const { env, args } = withConfigPath(argv, process.env, process.cwd());
  const [command = "serve", ...rest] = args;
  switch (command) {
    case "serve":
      return serve(env);
    case "worker":
      return workerCommand(loadConfig(env), out);
    case "jobs":
      return jobsCommand(loadConfig(env), rest, out);
    case "migrate":
      return migrateCommand(loadConfig(env), out);
    case "healthcheck":
      return process.exit(await healthcheckCommand(env, out, (line) => process.stderr.write(`${line}\n`)));
    case "keys":
      return keysCommand(loadConfig(env), rest, out);
    case "users":
      return usersCommand(loadConfig(env), rest, out);
    case "backup":
      return backupCommand(loadConfig(env), rest, out);
    case "scim":
      return scimCommand(loadConfig(env), rest, out);
    case "audit": {
      const code = await auditCommand(loadConfig(env), rest, out, (line) => process.stderr.write(`${line}\n`));
      if (code !== 0) process.exit(code);
      return;
    }
    case "config":
      if (rest[0] !== "check") throw new UsageError(`unknown config subcommand '${rest[0] ?? ""}': expected 'check'`);
      return configCheckCommand(loadConfig(env), out);
    case "version":
    case "--version":
      return versionCommand(out);
    case "help":
    case "--help":
    case "-h":
      return void process.stdout.write(USAGE);
    default:
      throw new UsageError(`unknown command '${command}' (see --help)`);
  }
}

/** Runs one command line (without bun and the script); exits 2 on a usage or config error, 1 on any other. */
export function runCli(argv: string[]): Promise<void> {
  return main(argv).catch((err: unknown) => {
    if (err instanceof ConfigError || err instanceof UsageError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    if (err instanceof TypeError && (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`fatal: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
