import { enqueueWebhook } from "../../jobs/kinds/webhook-deliver";
import type { StoreTables } from "../../store/store";
import type { VideoJobRecord } from "../../store/video-job-store";
import { isoTime } from "../../time";
import { presentVideoJob } from "../present";
import { storedRequestOf } from "../stored-request";

/**
 * One event per job and terminal status, keyed `<job id>-<status>` (OpenRouter's idempotency
 * key): to the request's callback_url, else the workspace's webhook_url at delivery time.
 * Nothing is enqueued when neither is set.
 */
export async function enqueueVideoWebhook(tx: Pick<StoreTables, "jobs">, job: VideoJobRecord, workspaceWebhookUrl: string | null, now: number): Promise<void> {
  if (job.callbackUrl === null && workspaceWebhookUrl === null) return;
  const { polling_url: _url, ...data } = presentVideoJob(job, storedRequestOf(job.request).origin);
  const body = JSON.stringify({ type: `video.generation.${job.status}`, created_at: isoTime(now), data: { ...data, model: job.model } });
  await enqueueWebhook(tx.jobs, { workspace_id: job.workspaceId, event_id: `${job.id}-${job.status}`, url: job.callbackUrl, body }, now);
}
