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

/** A worker thread before its start: it loads its modules meanwhile. */
type LaunchedWorker = { worker: Worker; settled: Promise<Slot>; begin(start: ToWorker, hooks: StartHooks): void };

type StartHooks = { logger: Logger; index: number; releaseReservation?: (id: string) => void; onClose(started: boolean): void };

/** What a thread says before it is started (it failed to load) is kept for the start to report. */
function launchWorker(): LaunchedWorker {
  const worker = new Worker(WORKER_URL);
  let hooks: StartHooks | undefined;
  let started = false;
  let earlyError: string | undefined;
  let markStopped = () => {};
  const stopped = new Promise<void>((r) => (markStopped = r));
  let resolve!: (slot: Slot) => void;
  let reject!: (err: Error) => void;
  const settled = new Promise<Slot>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  settled.catch(() => {});
  const fail = (message: string) => reject(new Error(`job worker ${hooks?.index ?? "?"} could not start: ${message}`));
  worker.onmessage = (event: MessageEvent<FromWorker>) => {
    const message = event.data;
    if (message.type === "started") {
      started = true;
      resolve({ worker, stopped });
    } else if (message.type === "failed") {
      worker.terminate();
      fail(message.error);
    } else if (message.type === "release-reservation") hooks?.releaseReservation?.(message.id);
    else markStopped();
  };
  worker.addEventListener("error", (event) => {
    const message = (event as ErrorEvent).message;
    if (!hooks) earlyError ??= message;
    else {
      hooks.logger.error("job worker failed", { worker: hooks.index, error: message });
      if (!started) fail(message);
    }
  });
  worker.addEventListener("close", () => {
    markStopped();
    if (!hooks) earlyError ??= "the thread exited before it was started";
    else hooks.onClose(started);
  });
  return {
    worker,
    settled,
    begin(start, startHooks) {
      hooks = startHooks;
      if (earlyError !== undefined) {
        startHooks.logger.error("job worker failed", { worker: startHooks.index, error: earlyError });
        fail(earlyError);
        return;
      }
      worker.postMessage(start);
    },
  };
}

/**
 * Starts `count` job worker threads and resolves once each has opened its store and built its
 * registry (a worker that cannot start fails the start).
 * The HTTP thread never waits on them after that: it only posts wake-ups.
 */
export async function startJobWorkers(config: Config, opts: JobWorkerOptions): Promise<JobWorkers> {
  let stopping = false;
  const slots: Slot[] = [];

  const spawn = (index: number, launched = launchWorker()): Promise<Slot> => {
    launched.begin(
      { type: "start", config, index, modules: opts.modules ?? [], writeLock: opts.writeLock },
      {
        logger: opts.logger,
        index,
        releaseReservation: opts.releaseReservation,
        onClose(started) {
          if (stopping || !started) return;
          opts.logger.error("job worker exited unexpectedly; starting it again", { worker: index });
          setTimeout(() => {
            if (stopping) return;
            spawn(index).then(
              (slot) => (slots[index] = slot),
              (err: unknown) => opts.logger.error("job worker could not be started again", { worker: index, error: String(err) }),
            );
          }, RESTART_AFTER_MS).unref();
        },
      },
    );
    return launched.settled;
  };

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
