import type { Logger } from "./logger";

export type PeriodicTask = { stop(): Promise<void> };

/**
 * Runs `task` now and then every `everyMs`, one run at a time, without keeping the process
 * alive. A failing run (the database is away) is logged once with `failure` until a run
 * succeeds again; the next run simply tries again. `stop()` waits for a run in progress.
 */
export function startPeriodicTask(task: () => Promise<void>, everyMs: number, logger: Logger, failure: string): PeriodicTask {
  let warned = false;
  const tick = async () => {
    try {
      await task();
      warned = false;
    } catch (err) {
      if (!warned) logger.warn(failure, { error: String(err) });
      warned = true;
    }
  };
  let running = tick();
  const timer = setInterval(() => {
    running = running.then(tick);
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
