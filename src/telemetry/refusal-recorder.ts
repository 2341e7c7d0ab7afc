import type { Logger } from "../logger";
import { refusalCounters } from "../store/refusal-counts";
import type { RefusalRecord, RefusalStore } from "../store/store";

export type RefusalRecorderOptions = {
  /** how long a refusal waits for others to be written with (ms) */
  flushMs?: number;
  /** a batch this large is written at once */
  batchSize?: number;
  /** rows kept per second for one key (or unknown caller) and status; the rest are counted only */
  rowsPerSecond?: number;
  /** refusals waiting beyond this many are dropped (counted in the log), so memory stays bounded whatever comes */
  maxPending?: number;
};

/**
 * Writes refused requests to the store in batches, after their answers left: `add` only queues
 * (no I/O on the request's way), and a timer writes what gathered in one transaction, rows and
 * hourly counters together. Every refusal is counted; a flood (one client hammering a spent key,
 * a scanner trying keys) keeps `rowsPerSecond` rows per second of each key and status, so writing
 * the log stays cheap however fast refusals come (bench/refusals.ts). A store failure loses that
 * batch and logs it: refusals are a log, not a record the client was promised.
 */
export class RefusalRecorder {
  private rows: RefusalRecord[] = [];
  private counted: RefusalRecord[] = [];
  private second = 0;
  private rowsThisSecond = new Map<string, number>();
  private timer: Timer | null = null;
  private writing: Promise<void> = Promise.resolve();
  private dropped = 0;
  private readonly flushMs: number;
  private readonly batchSize: number;
  private readonly rowsPerSecond: number;
  private readonly maxPending: number;

  constructor(
    private readonly store: RefusalStore,
    private readonly logger: Logger,
    opts: RefusalRecorderOptions = {},
  ) {
    this.flushMs = opts.flushMs ?? 250;
    this.batchSize = opts.batchSize ?? 200;
    this.rowsPerSecond = opts.rowsPerSecond ?? 20;
    this.maxPending = opts.maxPending ?? 100_000;
  }

  add(refusal: RefusalRecord): void {
    if (this.counted.length >= this.maxPending) {
      this.dropped++;
      return;
    }
    this.counted.push(refusal);
    if (this.keepsRow(refusal)) this.rows.push(refusal);
    if (this.rows.length >= this.batchSize) void this.flush();
    else if (this.timer === null) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref?.();
    }
  }

  private keepsRow(refusal: RefusalRecord): boolean {
    const second = Math.floor(refusal.createdAt / 1000);
    if (second !== this.second) {
      this.second = second;
      this.rowsThisSecond.clear();
    }
    const source = `${refusal.keyHash ?? ""}|${refusal.status}`;
    const kept = this.rowsThisSecond.get(source) ?? 0;
    this.rowsThisSecond.set(source, kept + 1);
    return kept < this.rowsPerSecond;
  }

  /** writes what is queued now; resolves when it and every earlier batch are written (or given up) */
  flush(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const [rows, counted, dropped] = [this.rows, this.counted, this.dropped];
    [this.rows, this.counted, this.dropped] = [[], [], 0];
    if (dropped > 0) this.logger.warn("refused requests not logged: too many waiting to be written", { dropped });
    if (counted.length === 0) return this.writing;
    this.writing = this.writing.then(() =>
      this.store
        .record(rows, refusalCounters(counted))
        .catch((err: unknown) => this.logger.warn("refused requests could not be logged", { count: counted.length, error: String(err) })),
    );
    return this.writing;
  }

  /** resolves once everything added so far is written: a reader (the console's log, a test) sees it then */
  settled(): Promise<void> {
    return this.flush();
  }
}
