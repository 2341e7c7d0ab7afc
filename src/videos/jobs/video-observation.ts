import type { SecretBox } from "../../crypto/secret-box";
import { observePlan } from "../../observability/capture/observe-plan";
import { observationOutbox } from "../../observability/capture/outbox";
import { videoInput } from "../../observability/capture/request-content";
import { sealObservedBatch } from "../../observability/jobs/observed-payload";
import type { GenerationRecord, SettledGeneration, Store, WorkspaceRecord } from "../../store/store";
import type { VideoJobRecord } from "../../store/video-job-store";
import { storedRequestOf } from "../stored-request";
import type { VideoEndpoint } from "../video-catalog";

/**
 * A finished video's observation outbox, as inference builds one for its answers: the observation outbox
 * when the workspace forwards, its prompt kept when I/O logging keeps it; nothing otherwise. A
 * video has no text output.
 */
export async function videoObservation(
  deps: { store: Pick<Store, "keys">; secrets: Pick<SecretBox, "sealSync" | "sealBytesSync"> },
  workspace: Pick<WorkspaceRecord, "id" | "settings"> | undefined,
  job: VideoJobRecord,
  endpoint: VideoEndpoint | undefined,
  record: GenerationRecord,
  now: number,
): Promise<Pick<SettledGeneration, "observation" | "content"> | undefined> {
  if (!workspace) return undefined;
  const request = storedRequestOf(job.request);
  const caller = request.caller;
  const key = { hash: job.keyHash, name: (await deps.store.keys.get(job.keyHash))?.name ?? "" };
  const plan = observePlan(
    workspace,
    key,
    { id: job.generationId, sessionId: caller?.sessionId ?? null, trace: caller?.trace ?? null },
    "video",
    () => videoInput(request.params as unknown as Record<string, unknown>),
    null,
  );
  if (!plan) return undefined;
  const { observed, content } = observationOutbox(deps.secrets, plan, record, { providerName: endpoint?.provider.name ?? null, output: null }, now);
  return { observation: observed ? sealObservedBatch(deps.secrets, [observed]) : null, content };
}
