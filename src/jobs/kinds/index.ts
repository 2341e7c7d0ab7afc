import { secretBoxOf } from "../../crypto/secret-box";
import { observabilityJobKinds } from "../../observability/jobs";
import { senderDepsOf } from "../../observability/sender-http";
import { videoJobKinds } from "../../videos/jobs";
import type { JobKind } from "../registry";
import { auditPurgeKind } from "./audit-purge";
import { generationContentsPurgeKind } from "./generation-contents-purge";
import type { JobDeps } from "./job-deps";
import { jobsPurgeKind } from "./jobs-purge";
import { refusedRequestsPurgeKind } from "./refused-requests-purge";
import { responseCachePurgeKind } from "./response-cache-purge";
import { responsesPurgeKind } from "./responses-purge";
import { webhookDeliverKind } from "./webhook-deliver";

/** Every job kind the gateway runs. A new kind is one more entry here. */
export function productionJobKinds(deps: JobDeps): JobKind[] {
  const forwarding = { secrets: secretBoxOf(deps), senderDeps: senderDepsOf(deps), parts: deps.observability };
  return [
    responsesPurgeKind(deps.store.responses, deps.logger, deps.clock),
    jobsPurgeKind(deps.store.jobs, deps.logger, deps.clock),
    responseCachePurgeKind(deps.store.responseCache, deps.logger, deps.clock),
    refusedRequestsPurgeKind(deps.store.refusals, deps.logger, deps.clock),
    generationContentsPurgeKind(deps.store.generationContents, deps.config.ioLogging.retentionMs, deps.logger, deps.clock),
    auditPurgeKind(deps.store, deps.config.audit.retentionMs, deps.logger, deps.clock),
    webhookDeliverKind(deps),
    ...videoJobKinds(deps),
    ...observabilityJobKinds(forwarding),
  ];
}
