/**
 * Rate-limit counters (DESIGN.md "shared-state/"): per subject (an API key), the requests and
 * tokens of one fixed window and the requests in flight. In memory for one instance; in Redis
 * when several share them. The counters keep figures and apply the limits they are handed in
 * one atomic step; billing/rate-limit.ts decides windows, limits and what to answer.
 */

/** Limits to apply; null: that kind is neither checked nor counted. */
export type RateLimits = Readonly<{ rpm: number | null; tpm: number | null; concurrency: number | null }>;

export type RateAcquire = Readonly<{
  /** whose counters (the key hash) */
  subject: string;
  /** names the request's concurrency slot (the generation id) */
  lease: string;
  limits: RateLimits;
  /** the request's estimated tokens, counted at once against tpm */
  tokens: number;
  /** the window's number (e.g. the UTC minute) and when it ends, epoch ms */
  window: number;
  windowEndsAt: number;
  now: number;
  /** the slot is free again after this unless renewed by its instance */
  leaseExpiresAt: number;
}>;

/** What the counters held before this request: requests and tokens of the window, requests in flight. */
export type RateUse = Readonly<{ requests: number; tokens: number; inFlight: number }>;

/** `admitted`: counted (and its slot held); otherwise nothing changed. */
export type RateVerdict = Readonly<{ admitted: boolean; used: RateUse }>;

export type RateRelease = Readonly<{
  subject: string;
  lease: string;
  /** a slot was taken at acquire */
  heldSlot: boolean;
  /** tokens to add to (or, negative, take from) a window's count; never below zero */
  tokens: Readonly<{ window: number; windowEndsAt: number; delta: number }> | null;
  now: number;
}>;

export interface RateCounters {
  /** atomically: admitted when every given limit leaves room (rpm: +1, tpm: +tokens, concurrency: +1), and counted if so */
  acquire(request: RateAcquire): Promise<RateVerdict>;
  /** frees the request's slot and corrects its tokens; never throws */
  release(release: RateRelease): Promise<void>;
  /** stops renewing slots (what is still held expires with its lease) */
  close(): Promise<void>;
}
