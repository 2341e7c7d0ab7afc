// CPU of a child's threads by name, from /proc/<pid>/task/*/stat (clock ticks, 10 ms each):
// tells JavaScriptCore's compiler threads ("JITWorker") apart from the threads that serve.
import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 10;

/** Milliseconds of CPU (user + system) per thread name; empty when /proc is not there. */
export function threadCpuMs(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const task of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      // fields after the name: state is 3rd, utime the 14th and stime the 15th of the whole line
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return byName;
}
