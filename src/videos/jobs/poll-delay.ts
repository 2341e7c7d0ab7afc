/**
 * The wait before the next poll: poll_initial_ms growing by half each attempt up to poll_max_ms,
 * ±10 % jitter so jobs submitted together do not poll together, and never past the deadline
 * (the poll at the deadline fails the job).
 */
export function nextPollDelayMs(attempt: number, initialMs: number, maxMs: number, msToDeadline: number, random: () => number = Math.random): number {
  const base = Math.min(maxMs, initialMs * 1.5 ** Math.max(0, attempt - 1));
  const jittered = base * (0.9 + 0.2 * random());
  return Math.max(1, Math.min(Math.round(jittered), Math.max(0, msToDeadline) + 1));
}
