import { isJsonObject } from "../../formats/json-object";
import { outboundOptionsOf } from "../../outbound/policy";
import { PermanentFailure, RetryAfter } from "../job-errors";
import type { JobKind } from "../registry";
import { deliverWebhook } from "../webhooks/deliver";
import { enqueueWebhook, WEBHOOK_DELIVER, type WebhookJob } from "../webhooks/enqueue";
import { webhookSigningSecrets } from "../webhooks/workspace-signing-secrets";
import type { JobDeps } from "./job-deps";

export { enqueueWebhook, WEBHOOK_DELIVER, type WebhookJob };

function webhookJobOf(payload: unknown): WebhookJob {
  const ok =
    isJsonObject(payload) &&
    typeof payload.workspace_id === "string" &&
    typeof payload.event_id === "string" &&
    (payload.url === null || typeof payload.url === "string") &&
    typeof payload.body === "string";
  if (!ok) throw new PermanentFailure("not a webhook.deliver payload");
  return payload as unknown as WebhookJob;
}

/**
 * Delivers one webhook: signed afresh on each attempt, retried on the job schedule (a receiver's
 * Retry-After first), dead at once when the URL is refused at send time. A 410 Gone stops
 * deliveries to that target: the workspace's webhook_url is cleared when it was the target.
 */
export function webhookDeliverKind(deps: JobDeps): JobKind {
  return {
    kind: WEBHOOK_DELIVER,
    async run(payload) {
      const job = webhookJobOf(payload);
      const workspace = await deps.store.workspaces.find(job.workspace_id);
      if (!workspace) throw new PermanentFailure(`workspace ${job.workspace_id} no longer exists`);
      const url = job.url ?? workspace.webhookUrl;
      if (!url) throw new PermanentFailure("the workspace has no webhook_url");
      const secrets = await webhookSigningSecrets({ store: deps.store, clock: deps.clock, config: deps.config }, workspace.id);
      const outcome = await deliverWebhook(
        { id: job.event_id, url, body: job.body },
        { clock: deps.clock, secrets, outbound: outboundOptionsOf({ config: deps.config }) },
      );
      switch (outcome.kind) {
        case "delivered":
          return;
        case "retry":
          throw outcome.retryAfterSeconds === undefined ? new Error(outcome.reason) : new RetryAfter(outcome.retryAfterSeconds, outcome.reason);
        case "rejected":
          throw new PermanentFailure(`the webhook URL is refused: ${outcome.reason}`);
        case "gone":
          if (url === workspace.webhookUrl) {
            await deps.store.workspaces.update(workspace.id, { webhookUrl: null }, deps.clock());
            deps.logger.warn("webhook receiver answered 410 Gone: the workspace's webhook_url is cleared", { workspace: workspace.id, url });
          }
          throw new PermanentFailure("the receiver answered 410 Gone: no more deliveries to it");
      }
    },
  };
}
