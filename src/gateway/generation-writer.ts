import type { Logger } from "../logger";
import type { GenerationRecord, Store } from "../store/store";
import { persistGeneration } from "./record";

type Pending = { record: GenerationRecord; endedAt: number; reservationId: string | null };

/**
 * Commits generation records just after their answer has been handed to the client, instead
 * of before: the records finished in one turn of the event loop go in one short transaction,
 * each with its spend counters and reservation release. A request's reservation keeps the
 * key's limit safe until then. Readers of usage call `flush()` first, so the API never shows
 * a figure older than the answers already sent; shutdown flushes too.
 */
export class GenerationWriter {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
  ) {}

  enqueue(record: GenerationRecord, endedAt: number, reservationId: string | null): void {
    this.queue.push({ record, endedAt, reservationId });
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    try {
      this.store.transaction(() => {
        for (const p of batch) persistGeneration(this.store, p.record, p.endedAt, p.reservationId);
      });
    } catch (err) {
      // one bad row must not take the others with it: retry them one by one
      this.logger.error("batch write of generations failed; retrying one by one", { error: String(err), count: batch.length });
      for (const p of batch) {
        try {
          persistGeneration(this.store, p.record, p.endedAt, p.reservationId);
        } catch (e) {
          this.logger.error("failed to record generation", { id: p.record.id, error: String(e) });
        }
      }
    }
  }

  get pending(): number {
    return this.queue.length;
  }
}
