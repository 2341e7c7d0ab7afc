import { randomBytes, timingSafeEqual } from "node:crypto";

/** 256 random bits, base64url: session ids, invite tokens, authorization codes, form tokens. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the store keeps of a random token: its SHA-256 hex. 256 random bits need no slow hash. */
export function tokenDigest(token: string): string {
  return new Bun.CryptoHasher("sha256").update(token).digest("hex");
}

/** Constant-time comparison of two strings (false for different lengths, which only their lengths reveal). */
export function stringsEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && ab.length > 0 && timingSafeEqual(ab, bb);
}
