/**
 * Identifiers derived from what a generation already is, never drawn at random: a delivery
 * that is retried sends the same ids again, so a service that keys rows by id (Braintrust,
 * Opik, Weave, Snowflake's requestId) stores one row, not one per attempt.
 */

function digest(parts: readonly string[]): Uint8Array {
  // a separator no id contains keeps ("ab","c") and ("a","bc") apart
  return new Bun.CryptoHasher("sha256").update(parts.join("\u0000")).digest();
}

const hexOf = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** `bytes` bytes of the parts' SHA-256, as lowercase hex (16 → a 32-char trace id, 8 → a span id). */
export function derivedHex(bytes: number, ...parts: string[]): string {
  return hexOf(digest(parts).subarray(0, bytes));
}

/** A 64-bit unsigned id in decimal, as Datadog's tracers spell span ids. */
export function derivedDecimal64(...parts: string[]): string {
  const bytes = digest(parts);
  let value = 0n;
  for (const byte of bytes.subarray(0, 8)) value = (value << 8n) | BigInt(byte);
  // zero is "no span" to Datadog
  return (value === 0n ? 1n : value).toString();
}

const uuidText = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;

/**
 * A version 7 UUID whose time is `atMs` and whose other bits come from the parts. Opik refuses
 * any other version ("id must be a version 7 UUID") and orders rows by that time.
 */
export function derivedUuidV7(atMs: number, ...parts: string[]): string {
  const bytes = digest(parts).slice(0, 16);
  let ms = BigInt(Math.max(0, Math.floor(atMs)));
  for (let i = 5; i >= 0; i--) {
    bytes[i] = Number(ms & 0xffn);
    ms >>= 8n;
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return uuidText(hexOf(bytes));
}

/** A version 4-shaped UUID from the parts (Snowflake's requestId must be a UUID). */
export function derivedUuidV4(...parts: string[]): string {
  const bytes = digest(parts).slice(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return uuidText(hexOf(bytes));
}
