/** Reset windows in UTC: days start at midnight, weeks on Monday (ISO), months on the 1st. */
import type { WindowKeys } from "../store/store";

export type { WindowKeys };

const iso = (d: Date) => d.toISOString().slice(0, 10);

export function dayKey(now: number): string {
  return iso(new Date(now));
}

export function weekKey(now: number): string {
  const d = new Date(now);
  const sinceMonday = (d.getUTCDay() + 6) % 7;
  return iso(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - sinceMonday)));
}

export function monthKey(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

const DAY_MS = 86_400_000;

/** the keys of the UTC day last asked for: every request with a limit asks, and they change at midnight only */
let today: { from: number; keys: Readonly<WindowKeys> } | null = null;

export function windowKeys(now: number): Readonly<WindowKeys> {
  if (today !== null && now >= today.from && now < today.from + DAY_MS) return today.keys;
  const keys = Object.freeze({ day: dayKey(now), week: weekKey(now), month: monthKey(now) });
  today = { from: now - (((now % DAY_MS) + DAY_MS) % DAY_MS), keys };
  return keys;
}
