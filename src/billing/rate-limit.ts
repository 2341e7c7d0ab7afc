import type { Principal } from "../http/principal";
import type { IRUsage } from "../ir/types";
import type { RateCounters, RateLimits, RateRelease } from "../shared-state";
import type { RateLimit } from "../store/store";
import { rateLimited } from "./rate-limit-error";

/**
 * Requests and tokens count per fixed one-minute window (UTC minutes: 12:00:00.000 to
 * 12:00:59.999), the same for every instance. A fixed window is exact and one atomic step to
 * check; its price is that a client may spend two windows' worth across one boundary.
 */
export const RATE_WINDOW_MS = 60_000;

export type RateWindow = { number: number; endsAt: number };

export function rateWindow(now: number): RateWindow {
  const number = Math.floor(now / RATE_WINDOW_MS);
  return { number, endsAt: (number + 1) * RATE_WINDOW_MS };
}

/** The limits a key works under: each of its own, else its workspace's default. */
export function effectiveRateLimit(key: RateLimit, workspace: RateLimit): RateLimits {
  return { rpm: key.rpm ?? workspace.rpm, tpm: key.tpm ?? workspace.tpm, concurrency: key.concurrency ?? workspace.concurrency };
}

/** What a request admitted under rate limits holds until it ends. */
export type RateTicket = Readonly<{ subject: string; lease: string; limits: RateLimits; tokens: number; window: number }>;

/**
 * Before anything goes upstream, every request of a key with a rate limit (priced or not, any
 * route) is counted: +1 request, its prompt-token estimate, one slot in flight. Over a limit: 429
 * with what was counted, and nothing is held. No limit: null, and nothing is counted.
 */
export async function admitRate(
  counters: RateCounters,
  principal: Principal,
  lease: string,
  tokens: number,
  now: number,
  leaseMs: number,
): Promise<RateTicket | null> {
  const limits = effectiveRateLimit(principal.key.rateLimit, principal.workspace.rateLimit);
  if (limits.rpm === null && limits.tpm === null && limits.concurrency === null) return null;
  const window = rateWindow(now);
  const subject = principal.key.hash;
  const verdict = await counters.acquire({
    subject,
    lease,
    limits,
    tokens,
    window: window.number,
    windowEndsAt: window.endsAt,
    now,
    leaseExpiresAt: now + leaseMs,
  });
  if (!verdict.admitted) throw rateLimited(limits, verdict.used, tokens, window.endsAt - now);
  return { subject, lease, limits, tokens, window: window.number };
}

/**
 * How a request ends for its rate limits: its slot is freed and its tokens corrected by what it
 * used (prompt and completion; none when nothing served). The correction goes to the window the
 * request was admitted in while it lasts; after that, only tokens beyond the estimate count, in
 * the window where the request ended (an overestimate is not given back to a later window).
 */
export function rateRelease(ticket: RateTicket, usage: IRUsage | null, now: number): RateRelease {
  const window = rateWindow(now);
  const used = usage ? usage.inputTokens + usage.outputTokens : 0;
  const delta = used - ticket.tokens;
  const correct = ticket.limits.tpm !== null && (window.number === ticket.window ? delta !== 0 : delta > 0);
  return {
    subject: ticket.subject,
    lease: ticket.lease,
    heldSlot: ticket.limits.concurrency !== null,
    tokens: correct ? { window: window.number, windowEndsAt: window.endsAt, delta } : null,
    now,
  };
}
