/**
 * Live figures per endpoint from this gateway's own traffic: latency (time to first token, ms),
 * throughput (output tokens/s), success rate. Kept in fixed time buckets, so memory is bounded by
 * the number of endpoints whatever the traffic: 30 one-minute buckets and 24 one-hour buckets.
 *
 * Several instances share their records (shared-state/router): `record` tells an observer, and
 * `apply` takes another instance's record without telling it again.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MINUTE_SLOTS = 30;
const HOUR_SLOTS = 24;

/** Log-scale histogram bounds: 1, 1.25, 1.5625 ... up to ~1e7. Percentiles are exact to ±12.5% (see REPORTED). */
const BOUNDS: number[] = (() => {
  const out: number[] = [];
  for (let v = 1; v < 1e7; v *= 1.25) out.push(v);
  return out;
})();

function bucketOf(value: number): number {
  let lo = 0;
  let hi = BOUNDS.length - 1;
  if (value <= BOUNDS[0]!) return 0;
  if (value >= BOUNDS[hi]!) return hi;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (BOUNDS[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

type Slot = { start: number; ok: number; failed: number; latency: Uint32Array; throughput: Uint32Array };

const newSlot = (start: number): Slot => ({ start, ok: 0, failed: 0, latency: new Uint32Array(BOUNDS.length), throughput: new Uint32Array(BOUNDS.length) });

export type Percentiles = { p50: number; p75: number; p90: number; p99: number };

export type EndpointStats = {
  latencyLast30m: Percentiles | null;
  throughputLast30m: Percentiles | null;
  uptimeLast5m: number | null;
  uptimeLast30m: number | null;
  uptimeLast1d: number | null;
  requestsLast30m: number;
};

class EndpointSeries {
  minutes: Array<Slot | undefined> = new Array(MINUTE_SLOTS);
  hours: Array<{ start: number; ok: number; failed: number } | undefined> = new Array(HOUR_SLOTS);

  minuteSlot(at: number): Slot {
    const start = at - (at % MINUTE);
    const i = Math.floor(start / MINUTE) % MINUTE_SLOTS;
    let slot = this.minutes[i];
    if (!slot || slot.start !== start) this.minutes[i] = slot = newSlot(start);
    return slot;
  }

  hourSlot(at: number) {
    const start = at - (at % HOUR);
    const i = Math.floor(start / HOUR) % HOUR_SLOTS;
    let slot = this.hours[i];
    if (!slot || slot.start !== start) this.hours[i] = slot = { start, ok: 0, failed: 0 };
    return slot;
  }
}

/**
 * What a bucket reports: the geometric middle of (BOUNDS[i-1], BOUNDS[i]], so any value in it is
 * off by at most √1.25 ≈ ±12%. (Its upper bound would be up to 25% high.)
 */
const REPORTED: number[] = BOUNDS.map((b, i) => (i === 0 ? b : Math.round((b / Math.sqrt(1.25)) * 100) / 100));

function quantile(hist: Uint32Array, total: number, q: number): number | null {
  if (total === 0) return null;
  // the epsilon keeps e.g. 0.29 * 100 = 28.999999999999996 from picking rank 29
  const target = Math.max(1, Math.ceil(total * q - 1e-9));
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    seen += hist[i]!;
    if (seen >= target) return REPORTED[i]!;
  }
  return REPORTED[REPORTED.length - 1]!;
}

function percentiles(hist: Uint32Array, total: number): Percentiles | null {
  if (total === 0) return null;
  const at = (q: number) => quantile(hist, total, q)!;
  return { p50: at(0.5), p75: at(0.75), p90: at(0.9), p99: at(0.99) };
}

/** One local record, with the clock reading it was filed under, so every instance files it alike. */
export type StatsObserver = (endpointId: string, ok: boolean, latencyMs: number | null, throughput: number | null, at: number) => void;

export class LiveStats {
  private series = new Map<string, EndpointSeries>();
  private observer: StatsObserver | undefined;
  private quiet = false;

  constructor(private readonly clock: () => number = Date.now) {}

  private get(endpointId: string): EndpointSeries {
    let s = this.series.get(endpointId);
    if (!s) this.series.set(endpointId, (s = new EndpointSeries()));
    return s;
  }

  /** One finished attempt. `latencyMs`: time to first token (or to the whole answer); `throughput`: output tokens/s. */
  record(endpointId: string, ok: boolean, latencyMs: number | null, throughput: number | null, at = this.clock()): void {
    this.apply(endpointId, ok, latencyMs, throughput, at);
    if (this.observer && !this.quiet) this.observer(endpointId, ok, latencyMs, throughput, at);
  }

  /** at most one observer: the replication of the instance's routing state */
  observe(observer: StatsObserver | undefined): void {
    this.observer = observer;
  }

  /**
   * Runs `fn` with its records kept to this instance (until its promise settles, when it
   * returns one). Replaying the database at start goes through it: every instance replays the
   * same records itself, so sending them would count them twice on the others. Meant for
   * start-up, before the instance serves: records of requests served meanwhile stay local too.
   */
  quietly<T>(fn: () => T): T {
    const was = this.quiet;
    this.quiet = true;
    let result: T;
    try {
      result = fn();
    } catch (err) {
      this.quiet = was;
      throw err;
    }
    if (result instanceof Promise) return result.finally(() => (this.quiet = was)) as T;
    this.quiet = was;
    return result;
  }

  /** a record as `record` files it, without telling the observer (another instance's record) */
  apply(endpointId: string, ok: boolean, latencyMs: number | null, throughput: number | null, at: number): void {
    const s = this.get(endpointId);
    const m = s.minuteSlot(at);
    const h = s.hourSlot(at);
    if (ok) {
      m.ok++;
      h.ok++;
      if (latencyMs !== null && latencyMs >= 0) m.latency[bucketOf(latencyMs)]!++;
      if (throughput !== null && throughput > 0 && Number.isFinite(throughput)) m.throughput[bucketOf(throughput)]!++;
    } else {
      m.failed++;
      h.failed++;
    }
  }

  stats(endpointId: string, now = this.clock()): EndpointStats {
    const s = this.series.get(endpointId);
    const empty: EndpointStats = {
      latencyLast30m: null,
      throughputLast30m: null,
      uptimeLast5m: null,
      uptimeLast30m: null,
      uptimeLast1d: null,
      requestsLast30m: 0,
    };
    if (!s) return empty;
    const latency = new Uint32Array(BOUNDS.length);
    const throughput = new Uint32Array(BOUNDS.length);
    let latencyN = 0;
    let throughputN = 0;
    let ok30 = 0,
      failed30 = 0,
      ok5 = 0,
      failed5 = 0;
    for (const slot of s.minutes) {
      if (!slot || now - slot.start >= MINUTE_SLOTS * MINUTE || slot.start > now) continue;
      ok30 += slot.ok;
      failed30 += slot.failed;
      if (now - slot.start < 5 * MINUTE) {
        ok5 += slot.ok;
        failed5 += slot.failed;
      }
      for (let i = 0; i < BOUNDS.length; i++) {
        latency[i]! += slot.latency[i]!;
        latencyN += slot.latency[i]!;
        throughput[i]! += slot.throughput[i]!;
        throughputN += slot.throughput[i]!;
      }
    }
    let okDay = 0,
      failedDay = 0;
    for (const slot of s.hours) {
      if (!slot || now - slot.start >= HOUR_SLOTS * HOUR || slot.start > now) continue;
      okDay += slot.ok;
      failedDay += slot.failed;
    }
    const uptime = (ok: number, failed: number) => (ok + failed === 0 ? null : Math.round((ok / (ok + failed)) * 10000) / 100);
    return {
      latencyLast30m: percentiles(latency, latencyN),
      throughputLast30m: percentiles(throughput, throughputN),
      uptimeLast5m: uptime(ok5, failed5),
      uptimeLast30m: uptime(ok30, failed30),
      uptimeLast1d: uptime(okDay, failedDay),
      requestsLast30m: ok30 + failed30,
    };
  }

  /**
   * Several endpoints together over the last 30 minutes (a provider's, for the console): attempts
   * that succeeded and failed, and latency quantiles `qs` of the successes (null when none).
   */
  combined(endpointIds: readonly string[], qs: readonly number[], now = this.clock()): { ok: number; failed: number; latency: Array<number | null> } {
    const latency = new Uint32Array(BOUNDS.length);
    let ok = 0,
      failed = 0,
      n = 0;
    for (const id of endpointIds) {
      for (const slot of this.series.get(id)?.minutes ?? []) {
        if (!slot || now - slot.start >= MINUTE_SLOTS * MINUTE || slot.start > now) continue;
        ok += slot.ok;
        failed += slot.failed;
        for (let i = 0; i < BOUNDS.length; i++) {
          latency[i]! += slot.latency[i]!;
          n += slot.latency[i]!;
        }
      }
    }
    return { ok, failed, latency: qs.map((q) => quantile(latency, n, q)) };
  }

  /** number of endpoints tracked (for memory checks) */
  get size(): number {
    return this.series.size;
  }

  /** time slots held across all endpoints: at most 54 per endpoint, whatever the traffic */
  get slotCount(): number {
    let n = 0;
    for (const s of this.series.values()) n += s.minutes.filter(Boolean).length + s.hours.filter(Boolean).length;
    return n;
  }
}
