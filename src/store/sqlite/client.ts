import { Database } from "bun:sqlite";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import type { ThreadWriteLock } from "./thread-write-lock";

/** Without the schema's relations: the stores build their queries from the tables, and extracting the relational config cost every start about 3 ms. */
export type Db = BunSQLiteDatabase<Record<string, unknown>>;

/**
 * WAL with synchronous=NORMAL: measured ~39.5k commits/s against ~5.8k for FULL, with no
 * acknowledged row lost under SIGKILL (pitfalls #14); only power loss can drop the last commits.
 */
export function openDatabase(path: string): { sqlite: Database; db: Db } {
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  return { sqlite, db: drizzle(sqlite) };
}

/**
 * Runs one write step (synchronous bun:sqlite work) and hands its result back as a promise.
 * `writes`: for a step that writes only sometimes (a reservation starts its usage row once, then
 * reads it and holds in memory), whether it will write this time; asked only while another thread
 * of the process writes, and then a step that will not runs at once (SqliteWriter.step).
 */
export type WriteStep = <T>(step: () => T, writes?: () => boolean) => Promise<T>;

const WRITES = () => true;

/**
 * The one connection's writer. bun:sqlite is synchronous, so a write step runs to its end
 * without interleaving; only `transaction(async fn)` spans awaits, and while it is open the
 * connection belongs to it: other write steps wait for its COMMIT instead of landing inside a
 * transaction that might roll back. Uncontended, a step runs at once (no queue, no timer).
 */
export class SqliteWriter {
  private open = false;
  private waiting: Array<() => void> = [];
  private undo: Array<() => void> = [];
  // prepared once: every request with a limit and every group commit begins and commits one
  private readonly begin: ReturnType<Database["query"]>;
  private readonly commit: ReturnType<Database["query"]>;
  private readonly rollback: ReturnType<Database["query"]>;

  /** `lock`: shared with the other threads of this process that write to the same file (null: none) */
  constructor(
    private readonly sqlite: Database,
    private readonly lock: ThreadWriteLock | null = null,
  ) {
    this.begin = sqlite.query("BEGIN IMMEDIATE");
    this.commit = sqlite.query("COMMIT");
    this.rollback = sqlite.query("ROLLBACK");
  }

  /**
   * A step outside any async transaction; multi-statement steps are made atomic by `atomic`.
   * Uncontended it runs at once; while another thread of the process writes, it runs once that
   * thread is done, without blocking this one, or at once when `writes()` says it will not write
   * this time (reads do not wait for a writer in WAL mode). `writes` is asked only then, so the
   * usual, uncontended step pays nothing for it.
   */
  readonly step: WriteStep = <T>(step: () => T, writes: () => boolean = WRITES): Promise<T> => {
    if (this.open) return new Promise<void>((resume) => this.waiting.push(resume)).then(() => this.step(step, writes));
    if (this.lock === null) return runAtOnce(step);
    if (this.lock.tryTake()) return this.runHolding(step);
    if (!writes()) return runAtOnce(step);
    return this.lock.take().then((held) => (held ? this.runHolding(step) : runAtOnce(step)));
  };

  private runHolding<T>(step: () => T): Promise<T> {
    try {
      return runAtOnce(step);
    } finally {
      this.lock!.release();
    }
  }

  /**
   * Makes a change to this process's memory (the reservation book) part of the open transaction:
   * `undo` runs if the transaction rolls back or its COMMIT fails. Outside a transaction the
   * change stands at once.
   */
  onRollback(undo: () => void): void {
    if (this.sqlite.inTransaction) this.undo.push(undo);
  }

  /** several statements as one: BEGIN IMMEDIATE unless already inside a transaction */
  atomic<T>(step: () => T): T {
    if (this.sqlite.inTransaction) return step();
    this.begin.run();
    try {
      const result = step();
      this.commit.run();
      this.undo.length = 0;
      return result;
    } catch (err) {
      this.rollBack();
      throw err;
    }
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    while (this.open) await new Promise<void>((resume) => this.waiting.push(resume));
    this.open = true;
    // held from BEGIN to COMMIT, across the awaits of fn
    const held = this.lock ? await this.lock.take() : false;
    try {
      this.begin.run();
      try {
        const result = await fn();
        this.commit.run();
        this.undo.length = 0;
        return result;
      } catch (err) {
        this.rollBack();
        throw err;
      }
    } finally {
      if (held) this.lock!.release();
      this.open = false;
      const next = this.waiting;
      this.waiting = [];
      for (const resume of next) resume();
    }
  }

  /** a failed statement may have rolled SQLite back already; the memory changes are undone either way, latest first */
  private rollBack(): void {
    if (this.sqlite.inTransaction) this.rollback.run();
    const undo = this.undo;
    this.undo = [];
    for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
  }
}

/** Runs a step now: when no async transaction holds the connection, or inside the one that does (`writes` is not asked). */
export const runAtOnce: WriteStep = <T>(step: () => T): Promise<T> => {
  try {
    return Promise.resolve(step());
  } catch (err) {
    return Promise.reject(err);
  }
};
