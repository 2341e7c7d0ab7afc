// Cold start of the release binary (overhead.ts): from `exec` to the first 200 from /ready, with
// the default catalog and an existing database, as a restart or a rolling deploy meets it. The
// binary is built once per run with scripts/build.ts (BENCH_BINARY names one already built), and
// every start runs as `bun start` would: job worker threads at their default, the process
// starting itself again with BUN_CONFIG_MAX_HTTP_REQUESTS set (src/main.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const ADMIN_KEY = "sk-gw-v1-bench-cold-start-0123456789abcdef0123456789abcdef";
/** a start that has not answered /ready by then is reported as failed, not waited for */
const GIVE_UP_MS = 10_000;

export type ColdStart = { binary: string; measure(): Promise<number>; close(): void };

/** Builds the binary (or takes BENCH_BINARY) and creates its database with a first, unmeasured start. */
export async function prepareColdStart(): Promise<ColdStart> {
  const dir = mkdtempSync(join(tmpdir(), "gw-bench-cold-"));
  let binary = process.env.BENCH_BINARY;
  if (!binary) {
    binary = join(dir, "gateway");
    const build = Bun.spawnSync(["bun", "scripts/build.ts"], { cwd: ROOT, env: { ...process.env, BUILD_OUTFILE: binary }, stdout: "pipe", stderr: "pipe" });
    if (build.exitCode !== 0) throw new Error(`the release binary did not build: ${build.stderr.toString().slice(-400)}`);
  }
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOST: "127.0.0.1",
    DATABASE_URL: `file:${join(dir, "data/gateway.db")}`,
    GATEWAY_ADMIN_KEY: ADMIN_KEY,
    GATEWAY_DEFAULT_CATALOG: "true",
    LOG_LEVEL: "error",
  };
  const start = async (): Promise<number> => {
    const port = freePort();
    const t0 = performance.now();
    const proc = Bun.spawn([binary!, "serve"], { cwd: dir, env: { ...env, PORT: String(port) }, stdout: "ignore", stderr: "ignore" });
    try {
      for (;;) {
        if (performance.now() - t0 > GIVE_UP_MS) throw new Error(`no 200 from /ready within ${GIVE_UP_MS} ms`);
        const status = await fetch(`http://127.0.0.1:${port}/ready`).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 200) return performance.now() - t0;
        await Bun.sleep(1);
      }
    } finally {
      proc.kill("SIGINT");
      await proc.exited;
    }
  };
  await start();
  return { binary, measure: start, close: () => rmSync(dir, { recursive: true, force: true }) };
}

function freePort(): number {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}
