import type { Logger } from "../logger";
import type { SettledGeneration, Store } from "../store/store";

type Waiting = { item: SettledGeneration; resolve: () => void; reject: (err: unknown) => void };

/** How long a record the store refused is retried in the background before it is given up (and logged whole). */
const RETRY_EVERY_MS = 2_000;
const RETRY_FOR_MS = 5 * 60_000;

/**
 * Group commit of generation records. A request awaits `commit()` before the last bytes of its
 * answer are written, so an answer the client received in full is durable (nothing acknowledged
 * is lost, even to SIGKILL). The records that finish in one turn of the event loop share one
 * store transaction, each with its spend and reservation release; records that arrive while a
 * commit is in flight go in the next one. So the wait is microseconds on SQLite and one commit's
 * round trips on PostgreSQL, however many requests finish together.
 */
export class GenerationWriter {
  private queue: Waiting[] = [];
  private scheduled = false;
  private inFlight: Promise<void> | null = null;
  private retrying: Array<{ item: SettledGeneration; since: number }> = [];
  private retryTimer: Timer | null = null;

  private readonly retryEveryMs: number;
  private readonly outboxCommitted: () => void;

  /** `onOutboxCommitted`: heard after a commit that stored generations to forward (wakes the job workers, which drain them) */
  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    opts: { retryEveryMs?: number; onOutboxCommitted?: () => void } = {},
  ) {
    this.retryEveryMs = opts.retryEveryMs ?? RETRY_EVERY_MS;
    this.outboxCommitted = opts.onOutboxCommitted ?? (() => {});
  }

  /** resolves once the record, its spend and its reservation release are committed */
  commit(item: SettledGeneration): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.scheduled && !this.inFlight) {
        this.scheduled = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  /** resolves when every record handed over so far has been committed (or failed) */
  async settled(): Promise<void> {
    while (this.inFlight || this.queue.length > 0) await (this.inFlight ?? this.drain());
  }

  get pending(): number {
    return this.queue.length;
  }

  private async drain(): Promise<void> {
    this.scheduled = false;
    if (this.inFlight) return this.inFlight;
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      this.inFlight = this.commitBatch(batch);
      await this.inFlight;
      this.inFlight = null;
    }
  }

  private async commitBatch(batch: Waiting[]): Promise<void> {
    try {
      await this.store.generations.commit(batch.map((w) => w.item));
      for (const w of batch) w.resolve();
      this.wakeFor(batch.map((w) => w.item));
      return;
    } catch (err) {
      if (batch.length > 1) this.logger.error("batch commit of generations failed; committing them one by one", { error: String(err), count: batch.length });
    }
    // one bad record must not take the others with it
    for (const w of batch) {
      try {
        await this.store.generations.commit([w.item]);
        w.resolve();
        this.wakeFor([w.item]);
      } catch (err) {
        this.logger.error("failed to record generation; retrying in the background", { id: w.item.record.id, error: String(err) });
        this.retryLater(w.item);
        w.reject(err);
      }
    }
  }

  private wakeFor(items: readonly SettledGeneration[]): void {
    if (items.some((item) => item.observation)) this.outboxCommitted();
  }

  /** the store may be back soon (a PostgreSQL failover): keep the spend rather than drop it */
  private retryLater(item: SettledGeneration): void {
    this.retrying.push({ item, since: Date.now() });
    if (this.retryTimer) return;
    this.retryTimer = setInterval(() => void this.retryFailed(), this.retryEveryMs);
    this.retryTimer.unref();
  }

  private async retryFailed(): Promise<void> {
    const due = this.retrying;
    this.retrying = [];
    for (const r of due) {
      try {
        await this.store.generations.commit([r.item]);
        this.wakeFor([r.item]);
      } catch (err) {
        if (Date.now() - r.since < RETRY_FOR_MS) this.retrying.push(r);
        else this.logger.error("gave up recording a generation", { error: String(err), generation: r.item });
      }
    }
    if (this.retrying.length === 0 && this.retryTimer) {
      clearInterval(this.retryTimer);
      this.retryTimer = null;
    }
  }
}
