import type { SecretBox } from "../../crypto/secret-box";
import type { GenerationContentRecord, GenerationRecord } from "../../store/store";
import type { ObservedEntry } from "../jobs/observed-payload";
import type { CapturedOutput } from "./captured-content";
import { keptContent } from "./kept-content";
import type { ObservePlan } from "./observe-plan";

/**
 * What a generation's record commits with when its workspace forwards or keeps content: what the
 * record itself lacks of the observed generation (`observed`: the group commit seals those of a
 * commit into one outbox row, sealObservedBatch), and the kept prompt and completion (sealed).
 * Built synchronously in the step that hands the record to the group commit, so they are durable
 * together; the pipeline itself runs later, in a job worker (outbox-pump.ts).
 */
export function observationOutbox(
  secrets: Pick<SecretBox, "sealSync">,
  plan: ObservePlan,
  record: GenerationRecord,
  answer: { providerName: string | null; output: CapturedOutput | null },
  now: number,
): { observed: ObservedEntry | null; content: GenerationContentRecord | null } {
  const input = plan.input();
  // the record commits beside it: the drain reads the rest of the generation from there
  const observed = plan.broadcast
    ? {
        generationId: record.id,
        workspaceId: record.workspaceId,
        parts: { operation: plan.operation, keyName: plan.keyName, providerName: answer.providerName, input, output: answer.output },
        createdAt: now,
      }
    : null;
  const content = plan.keepContent
    ? {
        generationId: record.id,
        workspaceId: record.workspaceId,
        keyHash: record.keyHash,
        sealed: secrets.sealSync(JSON.stringify(keptContent(plan.operation, input, answer.output))),
        createdAt: now,
      }
    : null;
  return { observed, content };
}
