import { createHmac } from "node:crypto";

export const WEBHOOK_SECRET_PREFIX = "whsec_";

/**
 * Standard Webhooks: base64 HMAC-SHA256 over `id.timestamp.body`, keyed with the base64-decoded
 * part of the `whsec_` secret.
 */
export function standardWebhooksSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), "base64");
  return createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
}

/** OpenRouter: hex HMAC-SHA256 over `timestamp,body`, keyed with the whole secret string's UTF-8 bytes. */
export function openRouterSignature(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp},${body}`).digest("hex");
}

export type SignedMessage = { id: string; idempotencyKey: string; timestamp: number; body: string };

/**
 * Both header families on one delivery attempt. Every secret in force signs (the newest first):
 * space-separated `v1,` entries for Standard Webhooks, one `v1=` each for OpenRouter's header
 * (Stripe's convention for several signatures). Without a secret only the ids and time go out.
 */
export function webhookHeaders(message: SignedMessage, secrets: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "model-gateway-webhooks",
    "webhook-id": message.id,
    "webhook-timestamp": String(message.timestamp),
    "x-openrouter-idempotency-key": message.idempotencyKey,
  };
  if (secrets.length === 0) return headers;
  headers["webhook-signature"] = secrets.map((s) => `v1,${standardWebhooksSignature(s, message.id, message.timestamp, message.body)}`).join(" ");
  headers["x-openrouter-signature"] = [`t=${message.timestamp}`, ...secrets.map((s) => `v1=${openRouterSignature(s, message.timestamp, message.body)}`)].join(
    ",",
  );
  return headers;
}
