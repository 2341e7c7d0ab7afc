import type { FailureCount, FailureCounters, FailureRecord } from "./types";

const NONE: FailureCount = { count: 0, resetsAt: 0 };
/** beyond this many subjects the expired ones are dropped; a flood of addresses cannot grow the map for ever */
const SWEEP_ABOVE = 10_000;

/** One instance alone: each call runs to its end before another starts (one event loop), which makes `add` atomic. */
export class MemoryFailureCounters implements FailureCounters {
  private readonly subjects = new Map<string, { count: number; resetsAt: number }>();

  async get(subject: string, now: number): Promise<FailureCount> {
    return this.getNow(subject, now);
  }

  async add(record: FailureRecord): Promise<FailureCount> {
    return this.addNow(record);
  }

  async clear(subject: string): Promise<void> {
    this.subjects.delete(subject);
  }

  /** synchronous, for the Redis counters' fallback */
  getNow(subject: string, now: number): FailureCount {
    const entry = this.subjects.get(subject);
    if (!entry) return NONE;
    if (entry.resetsAt <= now) {
      this.subjects.delete(subject);
      return NONE;
    }
    return { ...entry };
  }

  addNow({ subject, now, windowMs, holdAt, holdMs }: FailureRecord): FailureCount {
    if (this.subjects.size >= SWEEP_ABOVE) this.sweep(now);
    const current = this.getNow(subject, now);
    const count = current.count + 1;
    const resetsAt = count >= holdAt ? now + holdMs : current.count === 0 ? now + windowMs : current.resetsAt;
    this.subjects.set(subject, { count, resetsAt });
    return { count, resetsAt };
  }

  private sweep(now: number): void {
    for (const [subject, entry] of this.subjects) if (entry.resetsAt <= now) this.subjects.delete(subject);
  }
}
