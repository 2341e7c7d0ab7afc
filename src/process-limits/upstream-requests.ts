import { execve } from "./libc";
import { UPSTREAM_REQUESTS_VARIABLE } from "./upstream-requests-variable";

export { UPSTREAM_REQUESTS_VARIABLE };
/** The highest value Bun accepts. */
export const DEFAULT_MAX_UPSTREAM_REQUESTS = 65_535;

/** What Bun runs with when the variable is unset. */
export const BUN_DEFAULT_MAX_HTTP_REQUESTS = 256;

type Env = Record<string, string | undefined>;

/** The command line that starts this program again: the compiled binary, or bun with its flags and the script. */
export function ownCommandLine(execPath: string, argv: readonly string[], execArgv: readonly string[]): string[] {
  const script = argv[1] ?? "";
  const compiled = script.startsWith("/$bunfs/") || script.startsWith("B:/~BUN/");
  return compiled ? [execPath, ...argv.slice(2)] : [execPath, ...execArgv, ...argv.slice(1)];
}

/**
 * Replaces the process with itself, the variable set, when it is unset: same PID, parent,
 * signals and standard streams, so systemd, containers and tests see one process. Returns
 * (having done nothing) when the variable is set, or when the process cannot be replaced.
 */
export function relaunchWithUpstreamLimit(env: Env): void {
  if (env[UPSTREAM_REQUESTS_VARIABLE]) return;
  const next: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) next[k] = v;
  next[UPSTREAM_REQUESTS_VARIABLE] = String(DEFAULT_MAX_UPSTREAM_REQUESTS);
  execve(process.execPath, ownCommandLine(process.execPath, process.argv, process.execArgv), next);
}
