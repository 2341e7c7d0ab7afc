/**
 * The latency histogram of the analytics counters (tables/analytics.ts): what its columns hold.
 */

/**
 * Upper bounds (ms, inclusive) of the latency histogram's buckets; the last bucket has none. A
 * generation adds 1 to the bucket its latency falls in, so percentiles over any set of counter
 * rows are read from the summed buckets (interpolated within one: they are estimates, within a
 * bucket's width). The bounds grow by about half each step above 100 ms, so a bucket's width stays
 * near a third of its values; below, 10 and 25 ms tell a nearby upstream's answers apart.
 */
export const LATENCY_BUCKET_BOUNDS_MS = [10, 25, 50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 8000, 13000, 21000, 34000, 60000] as const;

/** The histogram columns: `lat_00` … `lat_18`, one more than there are bounds. */
export const LATENCY_BUCKETS = LATENCY_BUCKET_BOUNDS_MS.length + 1;

/** The bucket of a latency: the first whose bound it does not exceed. */
export function latencyBucket(latencyMs: number): number {
  const i = LATENCY_BUCKET_BOUNDS_MS.findIndex((bound) => latencyMs <= bound);
  return i === -1 ? LATENCY_BUCKET_BOUNDS_MS.length : i;
}

/** The histogram's columns in order, `lat_00` first, as the table names them. */
export const LATENCY_COLUMNS: readonly string[] = Array.from({ length: LATENCY_BUCKETS }, (_, i) => `lat_${String(i).padStart(2, "0")}`);
