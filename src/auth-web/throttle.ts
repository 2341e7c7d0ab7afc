import type { AppContext } from "../app-context";
import { tokenDigest } from "../crypto/secret-token";

/**
 * Sign-in throttling. Failures count per account (the email typed, whether or not it exists, so
 * the lock says nothing about which accounts exist) and per client address, on every instance
 * (shared-state failure counters). Each failure after the first is answered more slowly; the
 * LOCK_AT-th failure within WINDOW_MS refuses that account or address for LOCK_MS, whatever
 * password comes next.
 */
export const WINDOW_MS = 15 * 60_000;
export const LOCK_AT = 5;
export const LOCK_MS = 15 * 60_000;

/** how long the answer to the n-th failure of a window waits: 0, 250, 500, 1000 ms, then the lock */
export function failureDelayMs(count: number): number {
  return count <= 1 ? 0 : Math.min(250 * 2 ** (count - 2), 2_000);
}

/** the counter subjects of an attempt; the email only as a digest, so no address book ends up in Redis */
export function throttleSubjects(email: string, address: string): string[] {
  return [`signin:account:${tokenDigest(email.trim().toLowerCase())}`, `signin:address:${address}`];
}

/** milliseconds until the lock of any subject ends; 0 when none is locked */
export async function lockedForMs(ctx: Pick<AppContext, "shared" | "clock">, subjects: string[]): Promise<number> {
  const now = ctx.clock();
  const counts = await Promise.all(subjects.map((s) => ctx.shared.failures.get(s, now)));
  return Math.max(0, ...counts.filter((c) => c.count >= LOCK_AT).map((c) => c.resetsAt - now));
}

/** counts a failure on every subject; how long to hold the answer, and how long the lock now lasts (0: none) */
export async function recordFailure(ctx: Pick<AppContext, "shared" | "clock">, subjects: string[]): Promise<{ delayMs: number; lockedForMs: number }> {
  const now = ctx.clock();
  const counts = await Promise.all(subjects.map((subject) => ctx.shared.failures.add({ subject, now, windowMs: WINDOW_MS, holdAt: LOCK_AT, holdMs: LOCK_MS })));
  const worst = counts.reduce((a, b) => (b.count > a.count ? b : a));
  return { delayMs: failureDelayMs(worst.count), lockedForMs: worst.count >= LOCK_AT ? worst.resetsAt - now : 0 };
}

/** a success forgets the account's failures (not the address's: one good password must not unlock guessing at others) */
export async function recordSuccess(ctx: Pick<AppContext, "shared">, subjects: string[]): Promise<void> {
  await ctx.shared.failures.clear(subjects[0]!);
}
