#!/usr/bin/env bun
/**
 * The CLI entry. Before anything else loads, a server process makes sure Bun's fetch may carry
 * as many upstream requests at once as it has clients (src/process-limits/upstream-requests.ts);
 * that may start the process again, so the rest of the program is imported only afterwards, and
 * the FFI that starts it again only when it is needed.
 */
import { beginStartupJitPolicy } from "./process-limits/startup-jit";
import { UPSTREAM_REQUESTS_VARIABLE } from "./process-limits/upstream-requests-variable";

/** `config` too, so that `config check` shows what `serve` runs with. */
const RELAUNCHED = new Set(["serve", "worker", "config"]);

/** The command, skipping `--config PATH` wherever it stands (cli/config-path.ts reads it later). */
function commandOf(argv: readonly string[]): string {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--config") i++;
    else if (!argv[i]!.startsWith("--config=")) return argv[i]!;
  }
  return "serve";
}

const argv = process.argv.slice(2);
const command = commandOf(argv);
if (RELAUNCHED.has(command) && !process.env[UPSTREAM_REQUESTS_VARIABLE])
  (await import("./process-limits/upstream-requests")).relaunchWithUpstreamLimit(process.env);
// until the server listens (src/server.ts)
if (command === "serve") beginStartupJitPolicy();
const { runCli } = await import("./cli/run");
await runCli(argv);
