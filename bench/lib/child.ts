// Child-process plumbing shared by the bench entry scripts and the orchestrator.
// Each child prints exactly one JSON line on stdout once it is ready, and runs a
// tiny control server so the orchestrator can read the child's own CPU time
// (process.cpuUsage covers every thread, including Bun's fetch/HTTP thread)
// with microsecond resolution, which /proc/<pid>/stat's 10 ms ticks cannot give.
import type { Subprocess } from "bun";

export type CpuSample = { user: number; system: number };

/** Starts the control server and announces `info` (plus its URL) to the parent. */
export function announceReady(info: Record<string, unknown>): void {
  const control = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => Response.json(process.cpuUsage()),
  });
  console.log(JSON.stringify({ ...info, control: `http://127.0.0.1:${control.port}/` }));
}

/** Runs `cleanup` and exits on SIGTERM / SIGINT, so temp dirs do not pile up. */
export function onTerminate(cleanup: () => Promise<void> | void): void {
  const stop = async () => {
    try {
      await cleanup();
    } finally {
      process.exit(0);
    }
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

export type Child<T> = { proc: Subprocess; info: T & { control: string }; cpu(): Promise<CpuSample>; stop(): Promise<void> };

/** Spawns `bun <script>` and waits for its ready line. */
export function spawnChild<T>(script: string, env: Record<string, string> = {}, bunArgs: string[] = []): Promise<Child<T>> {
  return spawnCommand<T>(["bun", ...bunArgs, script], env);
}

/** Spawns any command that prints the same ready line (e.g. Node with portkey.preload.mjs) and waits for it. */
export async function spawnCommand<T>(cmd: string[], env: Record<string, string> = {}): Promise<Child<T>> {
  const label = cmd.at(-1);
  const proc = Bun.spawn(cmd, {
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  let buffered = "";
  const decoder = new TextDecoder();
  while (!buffered.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${label} exited before announcing readiness (exit ${await proc.exited})`);
    buffered += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  // keep draining so a chatty child can never block on a full pipe
  void proc.stdout.pipeTo(new WritableStream()).catch(() => {});
  const info = JSON.parse(buffered.slice(0, buffered.indexOf("\n"))) as T & { control: string };
  return {
    proc,
    info,
    async cpu() {
      return (await (await fetch(info.control)).json()) as CpuSample;
    },
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}
