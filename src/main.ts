#!/usr/bin/env bun
import { ConfigError, loadConfig } from "./config";
import { configCheckCommand, keysCommand, migrateCommand, usersCommand, versionCommand } from "./cli/commands";
import { USAGE, UsageError } from "./cli/usage";
import { withConfigPath } from "./cli/config-path";
import { jobsCommand } from "./cli/jobs";
import { workerCommand } from "./cli/worker";

type Env = Record<string, string | undefined>;
import { startGateway } from "./server";

const out = (line: string) => process.stdout.write(line + "\n");

async function serve(env: Env): Promise<void> {
  const config = loadConfig(env);
  const gateway = await startGateway(config);
  if (gateway.boot.createdManagementKey) {
    out("Created the initial management key. It is shown only this once; store it now:");
    out(`  ${gateway.boot.createdManagementKey}`);
  }
  out(`gateway listening on port ${gateway.port}`);
  const shutdown = async () => {
    // finish answers in flight so their generations are recorded, then close
    await gateway.stop({ graceful: true });
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
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
    case "keys":
      return keysCommand(loadConfig(env), rest, out);
    case "users":
      return usersCommand(loadConfig(env), rest, out);
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

main(process.argv.slice(2)).catch((err: unknown) => {
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
