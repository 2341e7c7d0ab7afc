import type { Config } from "../config";

/** What the process sends a job worker thread. */
export type ToWorker =
  | {
      type: "start";
      config: Config;
      /** names the worker in leases: `<instance>/jobs-<index>` */
      index: number;
      /** modules whose `jobKinds(deps)` adds kinds to the registry (tests register theirs this way) */
      modules: string[];
      /** SQLite: the serving thread's write lock for the file (Store.writeLock), shared, not copied */
      writeLock?: SharedArrayBuffer;
    }
  /** something was enqueued */
  | { type: "wake" }
  /** records with generations to forward were committed: the outbox pump (worker 0) drains them */
  | { type: "outbox" }
  /** stop leasing; finish or give back what is held within `graceMs` */
  | { type: "stop"; graceMs: number };

/** What a job worker thread answers. */
export type FromWorker =
  | { type: "started" }
  | { type: "stopped" }
  | { type: "failed"; error: string }
  /** a job settled a reservation that the process holds (on SQLite, in its memory): the process releases it */
  | { type: "release-reservation"; id: string };
