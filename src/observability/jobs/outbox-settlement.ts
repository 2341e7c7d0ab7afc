import type { Logger } from "../../logger";
import type { NewJob } from "../../store/job-store";
import type { Store, StoreTables } from "../../store/store";

/** After a failed write (the database away), the next try. */
const RETRY_WRITE_MS = 1_000;

/** One outbox row whose deliveries have all ended: the jobs left to store (failed or unfinished deliveries) and how many were delivered. */
export type SettledRow = { seq: number; jobs: NewJob[]; delivered: number };

/**
 * Writes settled outbox rows in one transaction per batch: their leftover delivery jobs stored,
 * their deliveries counted, the rows removed, so a generation's forwarding is durable in one form
 * or the other at every moment. On SQLite every write of a job worker's connection makes the
 * serving thread's connection drop its page cache (bench/README.md, observability), so under load
 * the rows ride with the next drain's claim (`writeWith`: one transaction for both) and are
 * written alone only when no drain took them within `windowMs`. A write that fails keeps its
 * rows for the next one; their claims are renewed meanwhile.
 */
export class OutboxSettlement {
  private waiting: SettledRow[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Pick<Store, "transaction">,
    private readonly kind: string,
    private readonly logger: Logger,
    /** heard after a write that stored jobs (the runner looks at the queue again) */
    private readonly stored: () => void,
    private readonly windowMs: number,
  ) {}

  /** seqs waiting for their write: their claims must be kept */
  get seqs(): number[] {
    return this.waiting.map((r) => r.seq);
  }

  add(row: SettledRow): void {
    this.waiting.push(row);
    this.schedule(this.windowMs);
  }

  private schedule(ms: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush().catch(() => {}), ms);
    this.timer.unref?.();
  }

  /** writes what waits now (stopping, tests) */
  async flushNow(): Promise<void> {
    await this.flush().catch(() => {});
  }

  /**
   * One transaction: the rows waiting, then `then`'s own writes (the next claim). When it fails
   * the rows wait again and the error is the caller's.
   */
  writeWith<T>(then: (tx: StoreTables) => Promise<T>): Promise<T> {
    const written = this.writing.then(() => this.write(then));
    this.writing = written.catch(() => {});
    return written;
  }

  private flush(): Promise<void> {
    return this.writeWith(async () => {});
  }

  private async write<T>(then: (tx: StoreTables) => Promise<T>): Promise<T> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    const jobs = batch.flatMap((r) => r.jobs);
    const delivered = batch.reduce((n, r) => n + r.delivered, 0);
    let result: T;
    try {
      result = await this.store.transaction(async (tx) => {
        if (jobs.length > 0) await tx.jobs.enqueueMany(jobs);
        if (delivered > 0) await tx.jobs.countOutcomes([{ kind: this.kind, outcome: "succeeded", count: delivered }]);
        if (batch.length > 0) await tx.observationOutbox.remove(batch.map((r) => r.seq));
        return then(tx);
      });
    } catch (err) {
      if (batch.length > 0) {
        this.logger.warn("could not record forwarded generations; tried again with the next ones", { error: String(err), rows: batch.length });
        this.waiting = [...batch, ...this.waiting];
        this.schedule(RETRY_WRITE_MS);
      }
      throw err;
    }
    if (jobs.length > 0) this.stored();
    return result;
  }
}
