/**
 * The profile Bun lays a binary's bytecode out by (`bun build --bytecode-order`): which functions a
 * start runs, recorded by starting a binary of this build (`BUN_BYTECODE_ORDER_OUT`) the way a
 * restart does (`serve`, the default catalog, a database that exists) until `/ready` answers.
 * Bun then puts that bytecode together at the front of the binary, so a start reads less of it:
 * about 10 ms of a cold start on 2 cores (bench/README.md, "Cold start"). The profile is made at
 * build time from the code being built, so it never goes stale; a release's other targets use the
 * host's profile (the functions are the same).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** a start that has not answered /ready by then gives no profile (the build goes on without one) */
const GIVE_UP_MS = 20_000;

/** Starts `binary`, waits for /ready, stops it; returns the recorded profile's path, or null when the run failed. */
export async function recordBytecodeOrder(binary: string, outDir: string): Promise<string | null> {
  const dir = mkdtempSync(join(tmpdir(), "gw-bytecode-order-"));
  const profile = join(outDir, "bytecode-order.txt");
  rmSync(profile, { force: true });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOST: "127.0.0.1",
    PORT: "0",
    DATABASE_URL: `file:${join(dir, "gateway.db")}`,
    GATEWAY_ADMIN_KEY: "sk-gw-v1-bytecode-order-0123456789abcdef0123456789abcdef",
    GATEWAY_DEFAULT_CATALOG: "true",
    LOG_LEVEL: "error",
  };
  try {
    // the first start creates the database, as a fresh install does; the recorded one finds it
    if (!(await startUntilReady(binary, dir, env))) return null;
    if (!(await startUntilReady(binary, dir, { ...env, BUN_BYTECODE_ORDER_OUT: profile }))) return null;
    return readFileSync(profile, "utf8").startsWith("v") ? profile : null;
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function startUntilReady(binary: string, cwd: string, env: Record<string, string>): Promise<boolean> {
  const proc = Bun.spawn([binary, "serve"], { cwd, env, stdout: "pipe", stderr: "ignore" });
  const deadline = setTimeout(() => proc.kill("SIGKILL"), GIVE_UP_MS);
  try {
    const port = await listeningPort(proc.stdout);
    if (port === null) return false;
    const ready = await fetch(`http://127.0.0.1:${port}/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    proc.kill("SIGINT");
    return (await proc.exited) === 0 && ready;
  } finally {
    clearTimeout(deadline);
    proc.kill("SIGKILL");
  }
}

/** the port of `serve`'s "gateway listening on port N" line */
async function listeningPort(stdout: ReadableStream<Uint8Array>): Promise<number | null> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stdout) {
    text += decoder.decode(chunk, { stream: true });
    const match = /gateway listening on port (\d+)/.exec(text);
    if (match) return Number(match[1]);
  }
  return null;
}
