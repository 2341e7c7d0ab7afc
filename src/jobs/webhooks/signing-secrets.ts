import { WEBHOOK_SECRET_PREFIX } from "./signature";

/** After a rotation the previous secret keeps signing this long, so receivers can switch over. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** `whsec_` + 32 random bytes in base64 (Standard Webhooks asks for 24 to 64). */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64");
}

export type SecretGenerations<S> = { current: S; previous: S | null; previousUntil: number | null };

/** The secrets that sign at `now`, newest first: the previous one only inside its overlap. */
export function secretsInForce<S>(secrets: SecretGenerations<S>, now: number): S[] {
  const previousValid = secrets.previous !== null && secrets.previousUntil !== null && now < secrets.previousUntil;
  return previousValid ? [secrets.current, secrets.previous!] : [secrets.current];
}
