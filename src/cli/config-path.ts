import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "./usage";

type Env = Record<string, string | undefined>;

/**
 * Where gateway.yaml is read from: `--config PATH` (anywhere on the command line), else
 * GATEWAY_CONFIG, else ./gateway.yaml when it exists. Returns the environment the config
 * loader reads and the arguments without the option.
 */
export function withConfigPath(argv: readonly string[], env: Env, cwd: string): { env: Env; args: string[] } {
  const args: string[] = [];
  let path: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--config") {
      path = argv[++i];
      if (path === undefined || path === "") throw new UsageError("--config needs a path to a gateway.yaml file");
    } else if (arg.startsWith("--config=")) {
      path = arg.slice("--config=".length);
      if (path === "") throw new UsageError("--config needs a path to a gateway.yaml file");
    } else args.push(arg);
  }
  if (path !== undefined) return { env: { ...env, GATEWAY_CONFIG: resolve(cwd, path) }, args };
  if (env.GATEWAY_CONFIG) return { env, args };
  const local = resolve(cwd, "gateway.yaml");
  return { env: existsSync(local) ? { ...env, GATEWAY_CONFIG: local } : env, args };
}
