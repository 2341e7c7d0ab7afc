/**
 * USD per 1M tokens (how models.dev writes prices) to USD per token as an exact decimal string
 * (how the catalog and the wire write them): 1.25 → "0.00000125", never "0.0000012499999".
 */
export function perMillionToPerToken(perMillion: number): string {
  if (!Number.isFinite(perMillion) || perMillion <= 0) return "0";
  // 10 decimals of the per-million figure are exact in the double's shortest decimal form for real prices
  const scaled = BigInt(perMillion.toFixed(10).replace(".", "")); // units of 1e-16 USD per token
  const unit = 10n ** 16n;
  const whole = scaled / unit;
  const frac = (scaled % unit).toString().padStart(16, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : `${whole}`;
}
