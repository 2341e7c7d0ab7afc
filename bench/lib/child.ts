// Child-process plumbing shared by the bench entry scripts and the orchestrator.
// Each child prints exactly one JSON line on stdout once it is ready, and runs a
// tiny control server so the orchestrator can read the child's own CPU time
// (process.cpuUsage covers every thread, including Bun's fetch/HTTP thread)
// with microsecond resolution, which /proc/<pid>/stat's 10 ms ticks cannot give.
// On request it also measures the child's event-loop delay (node:perf_hooks'
// monitorEventLoopDelay, off until asked, so the other benches' figures do not carry its timer).

import { heapStats } from "bun:jsc";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Subprocess } from "bun";

export type CpuSample = { user: number; system: number };

/** Event-loop delay over a window, ms (the histogram's nanoseconds converted). */
export type LoopDelay = { p50: number; p99: number; max: number; samples: number };

/** Resolution of the event-loop delay timer, ms: Node's default. */
const LOOP_DELAY_RESOLUTION_MS = 10;

/** Starts the control server and announces `info` (plus its URL) to the parent. */
export function announceReady(info: Record<string, unknown>, extra: Record<string, () => unknown> = {}): void {
  let loop: ReturnType<typeof monitorEventLoopDelay> | null = null;
  const routes: Record<string, () => unknown> = {
    ...extra,
    // the JavaScript heap now, then live after a full collection (what a steady state retains), and its commonest object types
    "/heap": () => {
      const before = heapStats();
      Bun.gc(true);
      const after = heapStats();
      const types = Object.entries(after.objectTypeCounts)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 25);
      return {
        heapMb: before.heapSize / 2 ** 20,
        capacityMb: before.heapCapacity / 2 ** 20,
        extraMb: before.extraMemorySize / 2 ** 20,
        liveMb: after.heapSize / 2 ** 20,
        objects: after.objectCount,
        types,
      };
    },
    "/loop-delay/start": () => {
      loop?.disable();
      loop = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
      loop.enable();
      return { started: true };
    },
    "/loop-delay/stop": (): LoopDelay | null => {
      if (!loop) return null;
      loop.disable();
      const h = loop;
      loop = null;
      const ms = (ns: number) => ns / 1e6;
      return { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), samples: h.count };
    },
  };
  const control = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const route = routes[new URL(req.url).pathname];
      return Response.json(route ? route() : process.cpuUsage());
    },
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

export type Child<T> = {
  proc: Subprocess;
  info: T & { control: string };
  cpu(): Promise<CpuSample>;
  /** GET one of the child's control routes (announceReady's `extra`, or /loop-delay/start and /stop) */
  control<R>(path: string): Promise<R>;
  stop(): Promise<void>;
};

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
    async control<R>(path: string) {
      return (await (await fetch(new URL(path, info.control))).json()) as R;
    },
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}
