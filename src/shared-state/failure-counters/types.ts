/**
 * Failure counters (DESIGN.md "shared-state/"): how many times something failed lately, per
 * subject (a sign-in account or address). In memory for one instance, in Redis when several
 * share them, so an attacker cannot multiply the allowance by the number of instances. The
 * counters keep figures and apply the windows they are handed; auth-web/throttle.ts decides them.
 */

export type FailureCount = Readonly<{ count: number /** epoch ms when the count resets; 0 when there is none */; resetsAt: number }>;

export type FailureRecord = Readonly<{
  subject: string;
  now: number;
  /** a first failure starts a window this long */
  windowMs: number;
  /** once the count reaches this, the window restarts to last `holdMs` from now */
  holdAt: number;
  holdMs: number;
}>;

export interface FailureCounters {
  /** the subject's failures of its current window */
  get(subject: string, now: number): Promise<FailureCount>;
  /** counts one failure, atomically; the count after it */
  add(record: FailureRecord): Promise<FailureCount>;
  /** forgets the subject's failures (a success) */
  clear(subject: string): Promise<void>;
}
