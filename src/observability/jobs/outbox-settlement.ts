import type { Logger } from "../../logger";
import type { NewJob } from "../../store/job-store";
import type { Store } from "../../store/store";
import { throttledWakeup } from "../../jobs/throttled-wakeup";

/** After a failed write (the database away), the next try. */
const RETRY_WRITE_MS = 1_000;

/** One outbox row whose deliveries have all ended: the jobs left to store (failed or unfinished deliveries) and how many were delivered. */
export type SettledRow = { seq: number; jobs: NewJob[]; delivered: number };

/**
 * Writes settled outbox rows in one transaction per batch: their leftover delivery jobs stored,
 * their deliveries counted, the rows removed, so a generation's forwarding is durable in one form
 * or the other at every moment. An idle drain writes at once (with the rows of the same turn), a
 * busy one at most once every `windowMs`: on SQLite every write of a job worker's connection
 * makes the serving thread's connection drop its page cache (bench/README.md, observability). A
 * write that fails keeps its rows for the next one; their claims are renewed meanwhile.
 */
export class OutboxSettlement {
  private waiting: SettledRow[] = [];
  private scheduled = false;
  private writing: Promise<void> = Promise.resolve();
  private readonly flushPaced: () => void;

  constructor(
    private readonly store: Pick<Store, "transaction">,
    private readonly kind: string,
    private readonly logger: Logger,
    /** heard after a write that stored jobs (the runner looks at the queue again) */
    private readonly stored: () => void,
    windowMs: number,
  ) {
    this.flushPaced = throttledWakeup(() => void this.flush(), windowMs);
  }

  /** seqs waiting for their write: their claims must be kept */
  get seqs(): number[] {
    return this.waiting.map((r) => r.seq);
  }

  add(row: SettledRow): void {
    this.waiting.push(row);
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(this.flushPaced);
  }

  /** writes what waits now (stopping) */
  async flushNow(): Promise<void> {
    await this.flush();
  }

  private flush(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  private async write(): Promise<void> {
    this.scheduled = false;
    const batch = this.waiting;
    if (batch.length === 0) return;
    this.waiting = [];
    const jobs = batch.flatMap((r) => r.jobs);
    const delivered = batch.reduce((n, r) => n + r.delivered, 0);
    try {
      await this.store.transaction(async (tx) => {
        if (jobs.length > 0) await tx.jobs.enqueueMany(jobs);
        if (delivered > 0) await tx.jobs.countOutcomes([{ kind: this.kind, outcome: "succeeded", count: delivered }]);
        await tx.observationOutbox.remove(batch.map((r) => r.seq));
      });
    } catch (err) {
      this.logger.warn("could not record forwarded generations; tried again with the next ones", { error: String(err), rows: batch.length });
      this.waiting = [...batch, ...this.waiting];
      setTimeout(() => void this.flush(), RETRY_WRITE_MS).unref();
      return;
    }
    if (jobs.length > 0) this.stored();
  }
}
