import type { GenerationRecord, GenerationStore } from "../store/store";
import type { LiveStats } from "./live-stats";

const DAY = 24 * 60 * 60_000;
const PAGE = 5_000;

/** Statuses after which the inference run moves to another endpoint and counts a failure (see attempt.ts). */
const isFailedAttempt = (status: number) => status === 0 || status === 408 || status === 429 || status >= 500;

/**
 * Replays one generation into the live figures the way the inference run recorded it while
 * serving: failed attempts on other endpoints, then the served endpoint's outcome (a cancelled
 * request says nothing about the endpoint).
 */
export function replayGeneration(stats: LiveStats, g: GenerationRecord): void {
  const endedAt = g.createdAt + (g.latencyMs ?? 0);
  // the live figure runs from the start of the attempt that served (failed attempts before it
  // do not count); the record keeps each attempt's duration, so that start is their running sum
  let at = g.createdAt;
  let servedAt = g.createdAt;
  for (const a of g.attempts) {
    if (a.endpoint === g.endpointId) servedAt = at;
    else if (isFailedAttempt(a.status)) stats.record(a.endpoint, false, null, null, Math.min(at + Math.max(0, a.latency), endedAt));
    at += Math.max(0, a.latency);
  }
  if (!g.endpointId || g.cancelled) return;
  if (g.finishReason === "error") {
    stats.record(g.endpointId, false, null, null, endedAt);
    return;
  }
  const firstAt = g.timeToFirstTokenMs !== null ? g.createdAt + g.timeToFirstTokenMs : endedAt;
  // streamed: tokens over the time after the first one; otherwise over the whole served attempt
  const spanMs = g.streamed && g.generationTimeMs !== null ? g.generationTimeMs : endedAt - servedAt;
  const output = g.tokensCompletion ?? 0;
  // as when it was first recorded: whole milliseconds, at least one
  const throughput = output > 0 ? output / (Math.max(1, spanMs) / 1000) : null;
  stats.record(g.endpointId, true, Math.max(0, firstAt - servedAt), throughput, endedAt);
}

/**
 * At start: feeds the last day of generation records into the live figures, so routing's sort
 * and the endpoint listings do not start blank after a restart. Reads in pages; records that
 * share the page boundary's millisecond are skipped by id.
 */
export async function rebuildFromGenerations(stats: LiveStats, generations: Pick<GenerationStore, "since">, now: number): Promise<number> {
  let since = now - DAY;
  let seenAtBoundary = new Set<string>();
  let count = 0;
  for (;;) {
    const page = await generations.since(since, PAGE);
    let fresh = 0;
    for (const g of page) {
      if (g.createdAt === since && seenAtBoundary.has(g.id)) continue;
      fresh++;
      replayGeneration(stats, g);
      count++;
    }
    if (page.length < PAGE || fresh === 0) return count;
    const last = page[page.length - 1]!.createdAt;
    const boundary = new Set(page.filter((g) => g.createdAt === last).map((g) => g.id));
    seenAtBoundary = last === since ? new Set([...seenAtBoundary, ...boundary]) : boundary;
    since = last;
  }
}
