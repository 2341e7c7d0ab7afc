/**
 * When a failed job runs again. The default follows the Standard Webhooks example schedule
 * (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h: about 3 days), then the job is dead.
 * `jobs.backoff_seconds` in gateway.yaml replaces the list.
 */
export const DEFAULT_BACKOFF_SECONDS: readonly number[] = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400];

/** ±10 %: jobs that failed together (a receiver that was down) do not all come back in the same instant. */
const JITTER = 0.1;

export type RetryPlan = {
  /** attempts made so far, the failed one included */
  attempts: number;
  maxAttempts: number;
  backoffMs: readonly number[];
  now: number;
  /** the handler's own delay (Retry-After): honoured as given, without jitter */
  retryAfterMs?: number;
  /** a recurring job never waits longer than its period */
  capMs?: number;
  /** in [0, 1) */
  random: () => number;
};

/** The time of the next attempt, or null: no attempt left, the job is dead. */
export function nextAttemptAt(plan: RetryPlan): number | null {
  if (plan.attempts >= plan.maxAttempts) return null;
  const step = plan.backoffMs[Math.min(Math.max(plan.attempts, 1), plan.backoffMs.length) - 1] ?? 0;
  const delay = plan.retryAfterMs ?? Math.round(step * (1 - JITTER + 2 * JITTER * plan.random()));
  return plan.now + Math.min(delay, plan.capMs ?? Infinity);
}

/** Attempts a kind gets unless it says otherwise: the first one and one per backoff step. */
export const defaultMaxAttempts = (backoffMs: readonly number[]): number => backoffMs.length + 1;
