/** Money is integer nano-dollars inside the gateway; USD numbers exist only at the API edge. */
export const NANOS_PER_USD = 1_000_000_000;

export function usdToNanos(usd: number): number {
  return Math.round(usd * NANOS_PER_USD);
}

export function nanosToUsd(nanos: number): number {
  return nanos / NANOS_PER_USD;
}

/** Exact conversion of a decimal USD string (catalog prices) to nano-dollars, possibly fractional per token. */
export function decimalToNanos(decimal: string | number | undefined): number {
  if (decimal === undefined) return 0;
  const n = typeof decimal === "number" ? decimal : Number(decimal);
  if (!Number.isFinite(n) || n < 0) return 0;
  // keep up to 1e-6 nano-dollar of precision for per-token prices like 0.0000000375
  return Math.round(n * NANOS_PER_USD * 1e6) / 1e6;
}
