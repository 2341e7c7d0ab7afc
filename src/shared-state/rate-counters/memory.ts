import type { RateAcquire, RateCounters, RateRelease, RateVerdict } from "./types";

type Counts = { window: number; windowEndsAt: number; requests: number; tokens: number; inFlight: Set<string> };

/** How often counts of finished windows with nothing in flight are dropped, so the map stays as small as the set of active keys. */
const SWEEP_EVERY_MS = 60_000;

/**
 * One instance alone: the counters live in this process, so nothing outlives it and a slot needs
 * no lease. Each call runs to completion before any other (one event loop), which makes it atomic.
 */
export class MemoryRateCounters implements RateCounters {
  private readonly subjects = new Map<string, Counts>();
  private sweptAt = 0;

  async acquire(req: RateAcquire): Promise<RateVerdict> {
    return this.acquireNow(req);
  }

  /** synchronous, for the Redis counters' fallback to call inside their own flow */
  acquireNow(req: RateAcquire): RateVerdict {
    this.sweep(req.now);
    const counts = this.current(req.subject, req.window, req.windowEndsAt);
    const used = { requests: counts.requests, tokens: counts.tokens, inFlight: counts.inFlight.size };
    const { rpm, tpm, concurrency } = req.limits;
    const admitted =
      (rpm === null || used.requests + 1 <= rpm) &&
      (tpm === null || used.tokens + req.tokens <= tpm) &&
      (concurrency === null || used.inFlight + 1 <= concurrency);
    if (!admitted) return { admitted, used };
    if (rpm !== null) counts.requests += 1;
    if (tpm !== null) counts.tokens += req.tokens;
    if (concurrency !== null) counts.inFlight.add(req.lease);
    return { admitted, used };
  }

  async release(rel: RateRelease): Promise<void> {
    const counts = this.subjects.get(rel.subject);
    if (!counts) return;
    counts.inFlight.delete(rel.lease);
    const { tokens } = rel;
    // a correction for a window already gone has nothing left to correct
    if (tokens === null || tokens.delta === 0 || tokens.window < counts.window) return;
    const target = this.current(rel.subject, tokens.window, tokens.windowEndsAt);
    target.tokens = Math.max(0, target.tokens + tokens.delta);
  }

  async close(): Promise<void> {}

  /** the subject's counts, started afresh when the window moved on (slots in flight stay) */
  private current(subject: string, window: number, windowEndsAt: number): Counts {
    const counts = this.subjects.get(subject);
    if (!counts) {
      const fresh = { window, windowEndsAt, requests: 0, tokens: 0, inFlight: new Set<string>() };
      this.subjects.set(subject, fresh);
      return fresh;
    }
    if (counts.window !== window) Object.assign(counts, { window, windowEndsAt, requests: 0, tokens: 0 });
    return counts;
  }

  private sweep(now: number): void {
    if (now - this.sweptAt < SWEEP_EVERY_MS) return;
    this.sweptAt = now;
    for (const [subject, counts] of this.subjects) if (counts.windowEndsAt <= now && counts.inFlight.size === 0) this.subjects.delete(subject);
  }
}
