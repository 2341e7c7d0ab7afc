// The machine a run was measured on, for the report header.
import { readFileSync } from "node:fs";
import { cpus, release, totalmem, type } from "node:os";

export function machineLine(extra: string[] = []): string {
  let model = cpus()[0]?.model ?? "unknown CPU";
  let processors = cpus().length;
  try {
    const info = readFileSync("/proc/cpuinfo", "utf8");
    model = /^model name\s*:\s*(.+)$/m.exec(info)?.[1]?.trim() ?? model;
    processors = info.match(/^processor\s*:/gm)?.length ?? processors;
  } catch {
    // not Linux: keep what node:os says
  }
  const parts = [
    `${model}`,
    `${navigator.hardwareConcurrency} cores usable (${processors} in /proc/cpuinfo${smtSiblings()})`,
    `${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
    `${type()} ${release()}`,
    `bun ${Bun.version}`,
    ...extra,
  ];
  return `machine: ${parts.join(", ")}`;
}

/**
 * CPU 0's hardware-thread siblings as the kernel reports them: on a 2-vCPU VM whose vCPUs share a
 * core, work on one slows the other, which moves every figure measured beside a busy thread.
 */
function smtSiblings(): string {
  try {
    const siblings = readFileSync("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "utf8").trim();
    return siblings.includes(",") || siblings.includes("-") ? `, CPU 0 shares its core with ${siblings}` : ", one thread per core";
  } catch {
    return "";
  }
}
