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

export function windowKeys(now: number): WindowKeys {
  return { day: dayKey(now), week: weekKey(now), month: monthKey(now) };
}
