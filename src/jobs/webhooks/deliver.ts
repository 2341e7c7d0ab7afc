import { type OutboundOptions, sendOutbound } from "../../outbound/client";
import { retryAfterSeconds } from "../../retry-after";
import { webhookHeaders } from "./signature";

export type WebhookMessage = {
  /** `webhook-id`: the same on every attempt of one event; no `.` in it */
  id: string;
  /** `X-OpenRouter-Idempotency-Key`; the id when absent */
  idempotencyKey?: string;
  url: string;
  /** the JSON text exactly as signed and sent */
  body: string;
};

export type DeliveryOutcome =
  | { kind: "delivered"; status: number }
  /** try again later; `retryAfterSeconds` when the receiver said (Retry-After) */
  | { kind: "retry"; reason: string; status?: number; retryAfterSeconds?: number }
  /** 410: the receiver wants no more deliveries to this URL */
  | { kind: "gone"; status: 410 }
  /** the URL fails the outbound check now: nothing was sent, and retrying will not help */
  | { kind: "rejected"; reason: string };

export type DeliveryDeps = {
  /** epoch milliseconds; the attempt's `webhook-timestamp` */
  clock: () => number;
  /** plaintext `whsec_` secrets in force, newest first (empty: unsigned) */
  secrets: readonly string[];
  outbound: OutboundOptions;
};

/**
 * One delivery attempt of one webhook, signed afresh with this attempt's time. Only a 2xx counts
 * as delivered; a 3xx is a failure (redirects are never followed). It never throws: a network
 * failure is a `retry` outcome. Retrying and recording are the caller's.
 */
export async function deliverWebhook(message: WebhookMessage, deps: DeliveryDeps): Promise<DeliveryOutcome> {
  const timestamp = Math.floor(deps.clock() / 1000);
  const headers = webhookHeaders({ id: message.id, idempotencyKey: message.idempotencyKey ?? message.id, timestamp, body: message.body }, deps.secrets);
  const result = await sendOutbound({ url: message.url, method: "POST", headers, body: message.body }, deps.outbound);
  if (result.kind === "refused") return { kind: "rejected", reason: result.reason };
  if (result.kind === "failed") return { kind: "retry", reason: result.reason };
  const { status } = result;
  if (status >= 200 && status < 300) return { kind: "delivered", status };
  if (status === 410) return { kind: "gone", status };
  const after = retryAfterSeconds(result.headers.get("retry-after"), deps.clock());
  return { kind: "retry", reason: `receiver answered ${status}`, status, ...(after === undefined ? {} : { retryAfterSeconds: after }) };
}
