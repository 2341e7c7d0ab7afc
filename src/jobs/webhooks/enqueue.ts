import type { JobStore } from "../../store/job-store";

/** The job kind that delivers one webhook event (kinds/webhook-deliver.ts runs it). */
export const WEBHOOK_DELIVER = "webhook.deliver";

/**
 * One event for a workspace's receiver: `url` is the event's own callback URL, or null for the
 * workspace's webhook_url at delivery time. `event_id` is the `webhook-id` of every attempt.
 */
export type WebhookJob = { workspace_id: string; event_id: string; url: string | null; body: string };

/**
 * Enqueues one event's delivery, in the transaction of the change that causes it when `jobs` is
 * the transaction's. The event id keys the job: enqueueing the same event twice delivers it once.
 */
export function enqueueWebhook(jobs: JobStore, event: WebhookJob, now: number): Promise<unknown> {
  return jobs.enqueue({ id: crypto.randomUUID(), kind: WEBHOOK_DELIVER, key: `webhook:${event.event_id}`, payload: event, runAt: now, now });
}
