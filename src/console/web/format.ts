/** How figures read on the pages. */

export function usd(value: number): string {
  if (value === 0) return "$0.00";
  if (Math.abs(value) < 0.01) return `$${value.toPrecision(2)}`;
  return `$${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** USD to the billionth, without trailing zeros (at least cents): what one request cost, $0.011 for an image, not $0.01 */
export function usdExact(value: number): string {
  const [whole, fraction = ""] = value.toFixed(9).replace(/0+$/, "").split(".");
  return `$${Number(whole).toLocaleString("en-US")}.${fraction.padEnd(2, "0")}`;
}

export function count(value: number): string {
  return value.toLocaleString("en-US");
}

export function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(ratio < 0.1 ? 1 : 0)}%`;
}

export function ms(value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  return value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
}

/** an ISO time as the reader's local date and time, to the second */
export function when(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return d.toLocaleString("en-GB", { year: "numeric", month: "short", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** an ISO time as the value of an <input type="datetime-local"> (UTC), and back */
export function toLocalInput(iso: string | null): string {
  return iso ? iso.slice(0, 16) : "";
}

export function fromLocalInput(value: string): string | null {
  return value ? `${value}:00Z` : null;
}
