import type { SecretBox } from "../../crypto/secret-box";
import type { GenerationRecord, SettledGeneration } from "../../store/store";
import { sealObservedParts } from "../jobs/observed-payload";
import type { CapturedOutput } from "./captured-content";
import { keptContent } from "./kept-content";
import type { ObservePlan } from "./observe-plan";

/**
 * What a generation's record commits with when its workspace forwards or keeps content: what the
 * record itself lacks of the observed generation in the observation outbox (sealed), and the kept prompt and completion
 * (sealed). Built synchronously in the step that hands the record to the group commit, so they
 * are durable together; the pipeline itself runs later, in a job worker (outbox-pump.ts).
 */
export function observationOutbox(
  secrets: Pick<SecretBox, "sealSync">,
  plan: ObservePlan,
  record: GenerationRecord,
  answer: { providerName: string | null; output: CapturedOutput | null },
  now: number,
): Pick<SettledGeneration, "observation" | "content"> {
  const input = plan.input();
  const observation = plan.broadcast
    ? {
        generationId: record.id,
        workspaceId: record.workspaceId,
        // the record commits beside it: the drain reads the rest of the generation from there
        sealed: sealObservedParts(secrets, { operation: plan.operation, keyName: plan.keyName, providerName: answer.providerName, input, output: answer.output }),
        createdAt: now,
      }
    : null;
  const content = plan.keepContent
    ? { generationId: record.id, workspaceId: record.workspaceId, keyHash: record.keyHash, sealed: secrets.sealSync(JSON.stringify(keptContent(plan.operation, input, answer.output))), createdAt: now }
    : null;
  return { observation, content };
}
