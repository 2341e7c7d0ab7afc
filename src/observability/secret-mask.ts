/**
 * How a secret config value is shown (OpenRouter style): its first 4 characters and `…`, or
 * `…` alone when it is too short for 4 characters to be only a small part of it. A value ending
 * in `…` is a mask: sent back in an update, it means "keep what is stored".
 */
export const MASK = "…";

/** The shortest secret that shows its first characters. */
const SHOWN_FROM = 12;

export function maskSecret(value: string): string {
  return value.length >= SHOWN_FROM ? `${value.slice(0, 4)}${MASK}` : MASK;
}

export const isMasked = (value: unknown): boolean => typeof value === "string" && value.endsWith(MASK);
