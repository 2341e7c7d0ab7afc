import { throttledWakeup } from "../../jobs/throttled-wakeup";
import { drainObservations, type DrainDeps } from "./drain-outbox";

/** The shortest time between two drains' starts: what forwarding may add to a generation's delay. */
export const DRAIN_GAP_MS = 20;

/**
 * Drains the observation outbox in a job worker thread: when told that records with generations
 * to forward were committed (the workers' wake-up), and every `everyMs` in case a wake-up was
 * missed (another instance's requests, a restart). One drain at a time; a trigger during a drain
 * runs another after it, and drains start at least `gapMs` apart: under load one drain takes
 * the generations of many commits in one write, where a drain per commit would write as often as
 * the requests do (on SQLite each write of this connection costs the serving connection its page
 * cache). Failures are logged and the rows stay for the next drain. `enqueued` hears a drain that
 * made delivery jobs (the worker's runner looks at the queue at once).
 */
export class OutboxPump {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private stopped = false;
  private warnedUnwired = false;
  /** starts a drain at once, or at the end of the gap since the last start */
  private readonly startPaced: () => void;

  constructor(
    private readonly deps: DrainDeps,
    private readonly everyMs: number,
    private readonly enqueued: () => void = () => {},
    gapMs = DRAIN_GAP_MS,
  ) {
    this.startPaced = throttledWakeup(() => this.startDrain(), gapMs);
  }

  start(): void {
    this.timer = setInterval(() => this.trigger(), this.everyMs);
    this.trigger();
  }

  trigger(): void {
    if (!this.stopped) this.startPaced();
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

  /** stops triggering and waits for a drain in progress */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async drain(): Promise<void> {
    try {
      const { taken, deliveries } = await drainObservations(this.deps);
      if (deliveries > 0) this.enqueued();
      if (taken > 0 && !this.deps.parts && !this.warnedUnwired) {
        this.warnedUnwired = true;
        this.deps.logger.warn("observability broadcast is on, but this build has no destinations to forward to");
      }
    } catch (err) {
      this.deps.logger.warn("could not forward generations to observability destinations; they wait for the next try", { error: String(err) });
    }
  }
}
