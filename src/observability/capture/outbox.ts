import type { SecretBox } from "../../crypto/secret-box";
import type { GenerationRecord, SettledGeneration } from "../../store/store";
import { dispatchJob } from "../jobs/dispatch-kind";
import type { CapturedOutput } from "./captured-content";
import { keptContent } from "./kept-content";
import type { ObservePlan } from "./observe-plan";
import { observedGeneration } from "./observed-generation";

/**
 * What a generation's record commits with when its workspace forwards or keeps content: a
 * dispatch job carrying the whole observed generation (sealed), and the kept prompt and
 * completion (sealed). Built synchronously in the step that hands the record to the group commit,
 * so the two are durable together; the pipeline itself runs later, in a job worker.
 */
export function observationOutbox(
  secrets: Pick<SecretBox, "sealSync">,
  plan: ObservePlan,
  record: GenerationRecord,
  answer: { providerName: string | null; output: CapturedOutput | null },
  now: number,
): Pick<SettledGeneration, "jobs" | "content"> {
  const input = plan.input();
  const jobs = plan.broadcast
    ? [dispatchJob(secrets, observedGeneration(record, { operation: plan.operation, keyName: plan.keyName, providerName: answer.providerName, input, output: answer.output }), now)]
    : [];
  const content = plan.keepContent
    ? { generationId: record.id, workspaceId: record.workspaceId, keyHash: record.keyHash, sealed: secrets.sealSync(JSON.stringify(keptContent(plan.operation, input, answer.output))), createdAt: now }
    : null;
  return { jobs, content };
}
