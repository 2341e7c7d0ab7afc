/**
 * A gateway as its own process (`bun src/main.ts serve`), for what only a real process shows:
 * several instances on one database, SIGKILL, restarts.
 */

import { join } from "node:path";
import type { Subprocess } from "bun";
import { ADMIN_KEY } from "./gateway";

export type GatewayProcess = {
  url: string;
  port: number;
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** fetch with the admin key unless `key` says otherwise */
  api(path: string, init?: RequestInit & { key?: string; json?: unknown }): Promise<Response>;
  stop(signal?: "SIGINT" | "SIGTERM"): Promise<void>;
  kill(): Promise<void>;
};

export async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  await s.stop(true);
  return port;
}

const repoRoot = join(import.meta.dir, "../..");

/** `command`: what to run instead of `bun src/main.ts serve` (a test entry that adds job kinds) */
export async function startGatewayProcess(env: Record<string, string>, command: string[] = ["bun", "src/main.ts", "serve"]): Promise<GatewayProcess> {
  const port = await freePort();
  const proc = Bun.spawn(command, {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", GATEWAY_ADMIN_KEY: ADMIN_KEY, LOG_LEVEL: "error", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`${url}/ready`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    if (proc.exitCode !== null) throw new Error(`gateway exited with ${proc.exitCode}: ${await new Response(proc.stderr).text()}`);
    await Bun.sleep(50);
    if (i === 299) throw new Error("gateway did not become ready");
  }
  const api: GatewayProcess["api"] = (path, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set("authorization", `Bearer ${init.key ?? ADMIN_KEY}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    return fetch(url + path, { ...init, headers, body });
  };
  return {
    url,
    port,
    proc,
    api,
    // SIGINT drains as SIGTERM does but without waiting for a balancer to notice (src/drain.ts);
    // a test about SIGTERM itself says so
    async stop(signal: "SIGINT" | "SIGTERM" = "SIGINT") {
      if (proc.exitCode === null) proc.kill(signal);
      await proc.exited;
    },
    async kill() {
      proc.kill("SIGKILL");
      await proc.exited;
    },
  };
}
