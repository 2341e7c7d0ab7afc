import type { JobRunner } from "../../jobs/runner";
import { throttledWakeup } from "../../jobs/throttled-wakeup";
import type { NewJob } from "../../store/job-store";
import type { SenderDeps, SendOutcome } from "../contract";
import type { Delivery } from "../pipeline/select-deliveries";
import { deliverJob, deliverJobId, OBSERVABILITY_DELIVER, sendDeliveries, undeliveredError } from "./deliver-kind";
import { deliveryBatches } from "./delivery-batches";
import { type DrainDeps, deliveriesOf, type RowDeliveries } from "./drain-outbox";
import { sealObserved } from "./observed-payload";
import { OutboxSettlement } from "./outbox-settlement";

/**
 * Rows claimed at once at most, when the runner has a free slot: their deliveries beyond its free
 * slots wait for one in memory (JobRunner.attemptUnstored), so this bounds what waits.
 */
export const DRAIN_BATCH = 100;

/**
 * Under load, the shortest time between two drains' starts, and between two writes of settled
 * rows: what forwarding may add to a generation's delay. On SQLite every write of the job
 * worker's connection makes the serving connection drop its page cache and read its pages back
 * (strace: 2.2 reads a request at 100 ms in bench/observability.ts's batches), so fewer writes
 * cost the serving thread less. Half a second is well inside what tracing tools batch by
 * themselves (OpenTelemetry's span processor waits 5 s). A drain that found one row or none (a
 * quiet gateway) lets the next start at once: forwarding is then as quick as the wake-up; a drain
 * that claims a full batch claims the next at once while the runner has room.
 */
export const DRAIN_GAP_MS = 500;

/** what a generation a sender answered no outcome for comes to (a sender's bug): tried again */
const NO_OUTCOME: SendOutcome = { kind: "retry", reason: "the sender answered no outcome for this generation" };

export type PumpDeps = DrainDeps & {
  senderDeps: SenderDeps;
  /** names this pump in the outbox's claims (instance and worker) */
  owner: string;
  /** how long a claim holds without renewal: a pump that dies gives its rows to another after this */
  claimMs: number;
  /** the job runner's slots (JobRunner.attemptUnstored, JobRunner.room) */
  runner: Pick<JobRunner, "room" | "attemptUnstored" | "firstAttemptFailed">;
};

/**
 * Forwards the generations waiting in the observation outbox, in a job worker thread, off the
 * requests' path. A drain claims up to DRAIN_BATCH rows while the runner has a free slot, runs the pipeline on
 * each (deliveriesOf) and sends every delivery at once in a runner slot, without a job row: a
 * generation's outbox row keeps its forwarding durable until each of its deliveries was sent or
 * stored as a job (a failed one pending its retry, or dead; one the stopping worker did not finish,
 * pending), and then goes, in one write for many rows (OutboxSettlement). So a delivery that
 * succeeds first time, the usual case, costs no write of its own. A pump that dies leaves its rows
 * claimed until the claim ends; another then sends them again (at least once).
 *
 * Drains run when told that records with generations to forward were committed (the workers'
 * wake-up), when a delivery ends (a slot freed), and every `everyMs` in case a wake-up was missed
 * (another instance's requests, a restart); one at a time, and at least `gapMs` apart after a
 * drain that found more than one row, so under load one drain takes the rows of many commits in
 * one write while a quiet gateway forwards at once.
 */
export class OutboxPump {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private renewal: ReturnType<typeof setInterval> | undefined;
  private stopped = false;
  private warnedUnwired = false;
  /** rows the last drain claimed: more than one means the outbox fills faster than drains run */
  private lastClaimed = 0;
  /** rows claimed whose deliveries have not all ended */
  private readonly sending = new Map<number, Promise<void>>();
  private readonly settlement: OutboxSettlement;
  private readonly startPaced: () => void;

  constructor(
    private readonly deps: PumpDeps,
    private readonly everyMs: number,
    /** heard after delivery jobs were stored (the runner looks at the queue at once) */
    enqueued: () => void = () => {},
    gapMs = DRAIN_GAP_MS,
  ) {
    this.startPaced = throttledWakeup(
      () => this.startDrain(),
      () => (this.lastClaimed > 1 ? gapMs : 0),
    );
    this.settlement = new OutboxSettlement(deps.store, OBSERVABILITY_DELIVER, deps.logger, enqueued, DRAIN_GAP_MS);
  }

  start(): void {
    this.timer = setInterval(() => this.trigger(), this.everyMs);
    this.renewal = setInterval(() => void this.renewClaims(), Math.max(10, Math.floor(this.deps.claimMs / 3)));
    this.trigger();
  }

  trigger(): void {
    if (!this.stopped) this.startPaced();
  }

  /** stops claiming and waits for a drain in progress; deliveries under way go on (the runner's stop ends them) */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** after the runner stopped: waits for every claimed row's deliveries to end and writes them */
  async finish(): Promise<void> {
    await Promise.all(this.sending.values());
    await this.settlement.flushNow();
    clearInterval(this.renewal);
  }

  /** runs a drain now and resolves when it has claimed and dispatched what it could (tests) */
  drainNow(): Promise<void> {
    this.startDrain();
    return this.running ?? Promise.resolve();
  }

  /** resolves once every row claimed so far is settled and written (tests) */
  async settled(): Promise<void> {
    while (this.running || this.sending.size > 0) await Promise.all([this.running, ...this.sending.values()]);
    await this.settlement.flushNow();
  }

  private startDrain(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.trigger();
      }
    });
  }

  private async drain(): Promise<void> {
    this.lastClaimed = 0;
    try {
      for (;;) {
        // no free slot: a delivery that ends starts the next drain
        if (this.deps.runner.room <= 0) return;
        const limit = DRAIN_BATCH;
        const now = this.deps.clock();
        // the rows settled since the last write go in the same transaction: one write of this connection, not two
        const rows = await this.settlement.writeWith((tx) => tx.observationOutbox.claim(this.deps.owner, now, now + this.deps.claimMs, limit));
        if (rows.length === 0) return;
        this.lastClaimed += rows.length;
        let resolved: RowDeliveries[];
        try {
          resolved = await deliveriesOf(this.deps, rows);
        } catch (err) {
          // given back at once: the next drain tries them again
          await this.deps.store.observationOutbox
            .renew(
              this.deps.owner,
              rows.map((r) => r.seq),
              0,
            )
            .catch(() => []);
          throw err;
        }
        if (!this.deps.parts && !this.warnedUnwired) {
          this.warnedUnwired = true;
          this.deps.logger.warn("observability broadcast is on, but this build has no destinations to forward to");
        }
        this.dispatch(resolved);
        if (rows.length < limit) return;
      }
    } catch (err) {
      this.deps.logger.warn("could not forward generations to observability destinations; they wait for the next try", { error: String(err) });
    }
  }

  /**
   * Sends the deliveries of a drain's rows, each attempt in a runner slot: a destination's
   * generations together when its type sends many in one request (fewer exports under load),
   * each other delivery on its own. A row is settled when all of its deliveries have ended.
   */
  private dispatch(rows: readonly RowDeliveries[]): void {
    const ended = new Map<Delivery, Promise<NewJob | null>>();
    const together = (delivery: Delivery) => this.deps.parts?.senders(delivery.destination.type).sendMany !== undefined;
    for (const batch of deliveryBatches(
      rows.flatMap((row) => row.deliveries),
      together,
    )) {
      const attempt = this.attempt(batch);
      batch.forEach((delivery, i) =>
        ended.set(
          delivery,
          attempt.then((jobs) => jobs[i]!),
        ),
      );
    }
    for (const row of rows)
      this.send(
        row,
        row.deliveries.map((delivery) => ended.get(delivery)!),
      );
  }

  /** when all of a row's deliveries have ended, the row is settled */
  private send(row: RowDeliveries, deliveries: ReadonlyArray<Promise<NewJob | null>>): void {
    const sent = Promise.all(deliveries).then(
      (left) => {
        this.settlement.add({ seq: row.seq, jobs: left.filter((job) => job !== null), delivered: left.filter((job) => job === null).length });
        this.sending.delete(row.seq);
        if (row.deliveries.length > 0) this.trigger();
      },
      async (err: unknown) => {
        // a fault of this process, not of a destination: the row is given back whole for the next drain
        this.deps.logger.error("could not forward a claimed outbox row; it is tried again", { seq: row.seq, error: String(err) });
        this.sending.delete(row.seq);
        await this.deps.store.observationOutbox.renew(this.deps.owner, [row.seq], 0).catch(() => []);
      },
    );
    this.sending.set(row.seq, sent);
  }

  /**
   * The first attempt of deliveries to one destination: for each, null when delivered, else the
   * job to store for it (failed with its own outcome; pending when the stopping runner did not
   * let the attempt end).
   */
  private async attempt(batch: readonly Delivery[]): Promise<Array<NewJob | null>> {
    const { destination } = batch[0]!;
    const jobId = (delivery: Delivery) => deliverJobId(destination.id, delivery.generation.id);
    let outcomes: readonly SendOutcome[] = [];
    const id = batch.length === 1 ? jobId(batch[0]!) : `${OBSERVABILITY_DELIVER}:${batch.length} generations:${destination.id}`;
    const attempt = await this.deps.runner.attemptUnstored({ id, kind: OBSERVABILITY_DELIVER }, async () => {
      outcomes = await sendDeliveries(
        this.deps,
        destination,
        batch.map((delivery) => delivery.generation),
      );
    });
    return batch.map((delivery, i) => {
      // the generation as this destination may see it (privacy applied), sealed at rest like every copy
      const job = () => deliverJob(destination.id, delivery.generation.id, sealObserved(this.deps.secrets, delivery.generation), this.deps.clock());
      if (attempt.kind === "abandoned") return job();
      if (attempt.kind === "failed") return { ...job(), attempted: attempt.attempted };
      const outcome = outcomes[i] ?? NO_OUTCOME;
      if (outcome.kind === "delivered") return null;
      return {
        ...job(),
        attempted: this.deps.runner.firstAttemptFailed({ id: jobId(delivery), kind: OBSERVABILITY_DELIVER }, undeliveredError(outcome)).attempted,
      };
    });
  }

  /** keeps the rows this pump holds: those sending, and those waiting for their write */
  private async renewClaims(): Promise<void> {
    const seqs = [...this.sending.keys(), ...this.settlement.seqs];
    if (seqs.length === 0) return;
    try {
      await this.deps.store.observationOutbox.renew(this.deps.owner, seqs, this.deps.clock() + this.deps.claimMs);
    } catch (err) {
      this.deps.logger.warn("could not renew the claims of forwarded generations", { error: String(err) });
    }
  }
}
