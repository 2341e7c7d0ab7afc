// CPU pinning for benchmarks that measure one thread's CPU (not a test; Linux only, `taskset`).
import { readdirSync } from "node:fs";

/** Whether `taskset` exists and the machine has a CPU to spare for everything but the measured thread. */
export function canPin(): boolean {
  return Bun.which("taskset") !== null && navigator.hardwareConcurrency >= 2;
}

function setAffinity(tid: number, cpus: string): void {
  // a thread may have ended between the listing and the call
  Bun.spawnSync(["taskset", "-p", "-c", cpus, String(tid)], { stdout: "ignore", stderr: "ignore" });
}

/**
 * The measured process's main thread alone on CPU 0, its other threads (job workers, HTTP
 * client, JIT, GC helpers) on the others. Called before each measured batch: threads started
 * since inherit the affinity of the thread that started them.
 */
export function pinMainThread(pid: number): void {
  const rest = `1-${navigator.hardwareConcurrency - 1}`;
  for (const entry of readdirSync(`/proc/${pid}/task`)) {
    const tid = Number(entry);
    setAffinity(tid, tid === pid ? "0" : rest);
  }
}

/** Every thread of a process (load generator, mock upstream, receiver) off CPU 0. */
export function keepOffMainCpu(pid: number): void {
  const rest = `1-${navigator.hardwareConcurrency - 1}`;
  for (const entry of readdirSync(`/proc/${pid}/task`)) setAffinity(Number(entry), rest);
}
