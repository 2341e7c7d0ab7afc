// Resident memory of a child process, read by the orchestrator from /proc/<pid>/status
// (Linux), so it works for any child (Bun, Node, a baseline checkout) and costs the
// child nothing. VmRSS is the resident set now, VmHWM its peak since the process started.
import { readFileSync } from "node:fs";

export type Memory = { rssMb: number; peakMb: number };

const MB = 1024; // /proc reports kB

export function readMemory(pid: number): Memory | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  const rss = kb("VmRSS");
  const peak = kb("VmHWM");
  return Number.isFinite(rss) ? { rssMb: rss / MB, peakMb: (Number.isFinite(peak) ? peak : rss) / MB } : null;
}

/**
 * RSS once start-up has settled: sampled every `stepMs`, after at least `minMs`, the
 * first time the last second of samples lies within 1% (at most `maxMs`). null without /proc.
 */
export async function settledRss(pid: number, minMs = 2000, maxMs = 10_000, stepMs = 250): Promise<number | null> {
  const samples: number[] = [];
  const window = Math.ceil(1000 / stepMs) + 1;
  for (let waited = 0; ; waited += stepMs) {
    const m = readMemory(pid);
    if (!m) return null;
    samples.push(m.rssMb);
    const last = samples.slice(-window);
    if (waited >= maxMs || (waited >= minMs && last.length === window && Math.max(...last) - Math.min(...last) <= 0.01 * m.rssMb)) return m.rssMb;
    await Bun.sleep(stepMs);
  }
}
