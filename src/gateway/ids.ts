import { randomBytes } from "node:crypto";

// ASCII order, so that a fixed-width number written in it sorts as its text does
const SORTABLE_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Generation ids look like OpenRouter's: `gen-<unix seconds>-<random>`. The random part starts with
 * the millisecond within the second (two sortable digits), so a second's ids sort nearly in the order
 * they were made: the index on the id, like the others on the generations table, takes its inserts
 * at its end instead of on a page anywhere in the second's range (with the ids at random, a commit of
 * 9 generations wrote about 5 of that index's pages to the WAL; in order, 1 or 2).
 */
export function newGenerationId(nowMs: number): string {
  const seconds = Math.floor(nowMs / 1000);
  const ms = Math.floor(nowMs) - seconds * 1000;
  return `gen-${seconds}-${SORTABLE_DIGITS[Math.floor(ms / 62)]}${SORTABLE_DIGITS[ms % 62]}${randomBytes(10).toString("base64url")}`;
}
