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
    `${navigator.hardwareConcurrency} cores usable (${processors} in /proc/cpuinfo)`,
    `${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
    `${type()} ${release()}`,
    `bun ${Bun.version}`,
    ...extra,
  ];
  return `machine: ${parts.join(", ")}`;
}
