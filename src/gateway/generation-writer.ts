import type { Logger } from "../logger";
import type { ObservedEntry } from "../observability/jobs/observed-payload";
import type { GenerationRecord, ObservationRecord, SettledGeneration, Store } from "../store/store";

/**
 * A settled generation as the request side hands it over: its observation, when its workspace
 * forwards it, still unsealed (the writer seals those of a commit together).
 */
export type PendingGeneration = Omit<SettledGeneration, "observation"> & { observed?: ObservedEntry | null };

/** Seals a commit's generations to forward into the one outbox row that commits with them (sealObservedBatch). */
export type ObservationSealer = (entries: readonly [ObservedEntry, ...ObservedEntry[]]) => ObservationRecord;

type Waiting = { item: PendingGeneration; resolve: () => void; reject: (err: unknown) => void };

const unsealable: ObservationSealer = () => {
  throw new Error("this writer was made without an observation sealer");
};

/**
 * The records of one commit as the store takes them: the observations of all of them sealed into
 * one outbox row, carried by the first record that has one. On the serving thread this is one
 * sealing and one row per commit instead of one per request (about 9 records per commit at 16
 * connections, bench/README.md).
 */
export function withSealedObservations(items: readonly PendingGeneration[], seal: ObservationSealer): readonly SettledGeneration[] {
  const entries = items.flatMap((item) => (item.observed ? [item.observed] : []));
  // the usual commit forwards nothing: its records go as they are, no copy per request
  if (entries.length === 0) return items;
  const row = seal(entries as [ObservedEntry, ...ObservedEntry[]]);
  const carrier = items.findIndex((item) => item.observed);
  // only the carrier is copied: the store reads the fields of a settled generation, not `observed`
  return items.map((item, i) => {
    if (i !== carrier) return item;
    const { observed: _observed, ...settled } = item;
    return { ...settled, observation: row };
  });
}

/**
 * How long a record that owes nothing may wait for its commit, and how many may wait: a response
 * cache hit's record (cost 0, nothing reserved, no spend) is committed with the next group, or this
 * long after it came, so that hits share transactions instead of each waiting for one. A crash
 * loses at most this window of such records; nothing owed is in them (bench/README.md).
 */
export const COST_FREE_WINDOW_MS = 10;
const COST_FREE_MAX = 256;

const ignore = () => {};

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
  private retrying: Array<{ item: PendingGeneration; since: number }> = [];
  private retryTimer: Timer | null = null;
  /** cost-free records waiting for the next group or the window's end (commitCostFree) */
  private costFree: PendingGeneration[] = [];
  private costFreeTimer: Timer | null = null;

  private readonly retryEveryMs: number;
  private readonly outboxCommitted: () => void;
  private readonly committed: (records: readonly GenerationRecord[]) => void;
  private readonly seal: ObservationSealer;
  private readonly deferCostFree: boolean;

  /**
   * `onOutboxCommitted`: heard after a commit that stored generations to forward (wakes the job
   * workers, which drain them); `sealObservations`: how a commit's generations to forward become
   * its outbox row (without it, a generation to forward cannot be committed); `onCommitted`: heard
   * with the records of every commit, once durable (the budget alerts check what they spent);
   * `deferCostFree`: every read of generations goes through this writer's `settled()` (one
   * instance on SQLite), so a cost-free record need not be durable before its answer ends
   */
  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    opts: {
      retryEveryMs?: number;
      onOutboxCommitted?: () => void;
      sealObservations?: ObservationSealer;
      onCommitted?: (records: readonly GenerationRecord[]) => void;
      deferCostFree?: boolean;
    } = {},
  ) {
    this.retryEveryMs = opts.retryEveryMs ?? RETRY_EVERY_MS;
    this.outboxCommitted = opts.onOutboxCommitted ?? (() => {});
    this.committed = opts.onCommitted ?? (() => {});
    this.seal = opts.sealObservations ?? unsealable;
    this.deferCostFree = opts.deferCostFree ?? false;
  }

  /** resolves once the record, its spend and its reservation release are committed */
  commit(item: PendingGeneration): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /**
   * A record that owes nothing (no spend, no reservation: a response cache hit). Where reads wait
   * for `settled()` (`deferCostFree`), it resolves at once and the record goes with the next group
   * commit or at the end of COST_FREE_WINDOW_MS, a failed one retried like any other; elsewhere
   * (PostgreSQL, read by other instances too) it is `commit`.
   */
  commitCostFree(item: PendingGeneration): Promise<void> {
    if (!this.deferCostFree) return this.commit(item);
    this.costFree.push(item);
    if (this.costFree.length >= COST_FREE_MAX) this.releaseCostFree();
    else this.costFreeTimer ??= setTimeout(() => this.releaseCostFree(), COST_FREE_WINDOW_MS);
    return Promise.resolve();
  }

  /** resolves when every record handed over so far has been committed (or failed), the waiting cost-free ones included */
  async settled(): Promise<void> {
    this.releaseCostFree();
    while (this.inFlight || this.queue.length > 0) await (this.inFlight ?? this.drain());
  }

  get pending(): number {
    return this.queue.length + this.costFree.length;
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight) return;
    this.scheduled = true;
    setImmediate(() => void this.drain());
  }

  /** the waiting cost-free records join the queue (nobody waits for them) */
  private takeCostFree(): void {
    if (this.costFreeTimer) {
      clearTimeout(this.costFreeTimer);
      this.costFreeTimer = null;
    }
    for (const item of this.costFree) this.queue.push({ item, resolve: ignore, reject: ignore });
    this.costFree = [];
  }

  private releaseCostFree(): void {
    if (this.costFree.length === 0) return;
    this.takeCostFree();
    this.schedule();
  }

  private async drain(): Promise<void> {
    this.scheduled = false;
    if (this.inFlight) return this.inFlight;
    while (this.queue.length > 0) {
      // cost-free records ride along with a group that commits anyway
      if (this.costFree.length > 0) this.takeCostFree();
      const batch = this.queue;
      this.queue = [];
      this.inFlight = this.commitBatch(batch);
      await this.inFlight;
      this.inFlight = null;
    }
  }

  /** one store transaction for the records of `items`, with their one outbox row */
  private commitItems(items: readonly PendingGeneration[]): Promise<void> {
    return this.store.generations.commit(withSealedObservations(items, this.seal));
  }

  private async commitBatch(batch: Waiting[]): Promise<void> {
    try {
      await this.commitItems(batch.map((w) => w.item));
      for (const w of batch) w.resolve();
      this.wakeFor(batch.map((w) => w.item));
      return;
    } catch (err) {
      if (batch.length > 1) this.logger.error("batch commit of generations failed; committing them one by one", { error: String(err), count: batch.length });
    }
    // one bad record must not take the others with it
    for (const w of batch) {
      try {
        await this.commitItems([w.item]);
        w.resolve();
        this.wakeFor([w.item]);
      } catch (err) {
        this.logger.error("failed to record generation; retrying in the background", { id: w.item.record.id, error: String(err) });
        this.retryLater(w.item);
        w.reject(err);
      }
    }
  }

  private wakeFor(items: readonly PendingGeneration[]): void {
    if (items.some((item) => item.observed)) this.outboxCommitted();
    this.committed(items.map((item) => item.record));
  }

  /** the store may be back soon (a PostgreSQL failover): keep the spend rather than drop it */
  private retryLater(item: PendingGeneration): void {
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
        await this.commitItems([r.item]);
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
