import type { Completion } from "../store/job-store";
import { throttledWakeup } from "./throttled-wakeup";

type Waiting = { completion: Completion; resolve: (held: boolean) => void; reject: (err: unknown) => void };

/**
 * Records succeeded attempts in one write per batch: an idle queue writes a completion at once
 * (with the others of the same turn), a busy one at most once every `windowMs`. On SQLite every write of a
 * job worker's connection makes the serving thread's connection drop its page cache before its
 * next transaction (bench/README.md, observability), so a write per finished job costs the hot
 * path; one per window does not grow with the jobs.
 */
export class CompletionBatch {
  private waiting: Waiting[] = [];
  private scheduled = false;
  private flushing: Promise<void> = Promise.resolve();
  /** writes at once, or at the end of the window since the last write */
  private readonly flushPaced: () => void;

  constructor(
    private readonly completeMany: (completions: readonly Completion[]) => Promise<string[]>,
    windowMs: number,
  ) {
    this.flushPaced = throttledWakeup(() => void this.flush(), windowMs);
  }

  /** resolves once written: true when the runner still held the job's lease */
  add(completion: Completion): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ completion, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // the completions of this turn go together
      queueMicrotask(this.flushPaced);
    });
  }

  /** writes what waits now, without waiting for the window (stopping) */
  async flushNow(): Promise<void> {
    if (this.waiting.length > 0) await this.flush();
    await this.flushing;
  }

  private flush(): Promise<void> {
    const written = this.write();
    this.flushing = Promise.all([this.flushing, written]).then(() => undefined);
    return written;
  }

  private async write(): Promise<void> {
    const batch = this.waiting;
    if (batch.length === 0) return;
    this.waiting = [];
    this.scheduled = false;
    try {
      const held = new Set(await this.completeMany(batch.map((w) => w.completion)));
      for (const w of batch) w.resolve(held.has(w.completion.id));
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
