import type { Config } from "./config";
import type { FromWorker, ToWorker } from "./jobs/worker-protocol";
import type { Logger } from "./logger";

/**
 * Relative to src/ on purpose: in the compiled binary every module's import.meta.url is the
 * entry's (src/main.ts, /$bunfs/root/gateway) and the worker entrypoint sits at
 * workers/jobs.worker.ts beside it, as it does beside this file in the source tree.
 */
const WORKER_URL = new URL("./workers/jobs.worker.ts", import.meta.url).href;

/** A worker that died unexpectedly is started again after this long. */
const RESTART_AFTER_MS = 1_000;

export type JobWorkers = {
  readonly count: number;
  /** something was enqueued: every worker looks at the queue now */
  wake(): void;
  /** generations to forward were committed: the outbox pump drains them */
  outboxFilled(): void;
  /** workers stop leasing, finish or give back their jobs within `graceMs`, and exit */
  stop(graceMs: number): Promise<void>;
};

export type JobWorkerOptions = {
  count: number;
  logger: Logger;
  /** see ToWorker.modules */
  modules?: string[];
  /** releases a reservation this process holds, when a job settled it (absent: a process that holds none) */
  releaseReservation?: (id: string) => void;
  /** see ToWorker.writeLock */
  writeLock?: SharedArrayBuffer;
};

type Slot = { worker: Worker; stopped: Promise<void> };

/**
 * Starts `count` job worker threads and resolves once each has opened its store and built its
 * registry (a worker that cannot start fails the start). The HTTP thread never waits on them
 * after that: it only posts wake-ups.
 */
export async function startJobWorkers(config: Config, opts: JobWorkerOptions): Promise<JobWorkers> {
  let stopping = false;
  const slots: Slot[] = [];

  const spawn = (index: number): Promise<Slot> =>
    new Promise((resolve, reject) => {
      const worker = new Worker(WORKER_URL);
      let started = false;
      let markStopped = () => {};
      const stopped = new Promise<void>((r) => (markStopped = r));
      worker.onmessage = (event: MessageEvent<FromWorker>) => {
        const message = event.data;
        if (message.type === "started") {
          started = true;
          resolve({ worker, stopped });
        } else if (message.type === "failed") {
          worker.terminate();
          reject(new Error(`job worker ${index} could not start: ${message.error}`));
        } else if (message.type === "release-reservation") opts.releaseReservation?.(message.id);
        else markStopped();
      };
      worker.addEventListener("error", (event) => {
        opts.logger.error("job worker failed", { worker: index, error: (event as ErrorEvent).message });
        if (!started) reject(new Error(`job worker ${index} could not start: ${(event as ErrorEvent).message}`));
      });
      worker.addEventListener("close", () => {
        markStopped();
        if (stopping || !started) return;
        opts.logger.error("job worker exited unexpectedly; starting it again", { worker: index });
        setTimeout(() => {
          if (stopping) return;
          spawn(index).then(
            (slot) => (slots[index] = slot),
            (err: unknown) => opts.logger.error("job worker could not be started again", { worker: index, error: String(err) }),
          );
        }, RESTART_AFTER_MS).unref();
      });
      const start: ToWorker = { type: "start", config, index, modules: opts.modules ?? [], writeLock: opts.writeLock };
      worker.postMessage(start);
    });

  const started = await Promise.allSettled(Array.from({ length: opts.count }, (_, i) => spawn(i)));
  for (const result of started) if (result.status === "fulfilled") slots.push(result.value);
  const failure = started.find((r) => r.status === "rejected");
  if (failure) {
    stopping = true;
    for (const slot of slots) slot.worker.terminate();
    throw (failure as PromiseRejectedResult).reason;
  }

  const post = (message: ToWorker) => {
    for (const slot of slots) slot.worker.postMessage(message);
  };
  /** one message per event-loop turn, however many times the turn asks (jobs enqueued, records committed) */
  const oncePerTurn = (message: ToWorker) => {
    let posted = false;
    return () => {
      if (posted || stopping) return;
      posted = true;
      queueMicrotask(() => {
        posted = false;
        post(message);
      });
    };
  };
  return {
    count: slots.length,
    wake: oncePerTurn({ type: "wake" }),
    outboxFilled: oncePerTurn({ type: "outbox" }),
    async stop(graceMs) {
      if (stopping) return;
      stopping = true;
      post({ type: "stop", graceMs });
      await Promise.race([Promise.all(slots.map((s) => s.stopped)), Bun.sleep(graceMs + 500)]);
      for (const slot of slots) slot.worker.terminate();
    },
  };
}
