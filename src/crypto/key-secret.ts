import { randomBytes, timingSafeEqual } from "node:crypto";

/** Raw keys: a recognisable prefix and 256 random bits. Only their SHA-256 digest is stored. */
export const KEY_PREFIX = "sk-gw-v1-";

export function generateRawKey(): string {
  return KEY_PREFIX + randomBytes(32).toString("hex");
}

export function hashKey(raw: string): string {
  return new Bun.CryptoHasher("sha256").update(raw).digest("hex");
}

/** Constant-time comparison of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, "hex");
  const bb = Buffer.from(b, "hex");
  return ab.length === bb.length && ab.length > 0 && timingSafeEqual(ab, bb);
}

/** The masked form shown in lists: prefix, three characters, an ellipsis and the last three. */
export function maskKey(raw: string): string {
  const body = raw.startsWith(KEY_PREFIX) ? raw.slice(KEY_PREFIX.length) : raw;
  const prefix = raw.startsWith(KEY_PREFIX) ? KEY_PREFIX : "";
  if (body.length <= 8) return `${prefix}${"*".repeat(body.length)}`;
  return `${prefix}${body.slice(0, 3)}...${body.slice(-3)}`;
}
