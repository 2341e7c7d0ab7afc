import type { SecretBox } from "../../crypto/secret-box";
import { GatewayError } from "../../errors";
import type { Principal } from "../../http/principal";
import type { KeptContent } from "../../observability/capture/kept-content";
import type { GenerationRecord, Store } from "../../store/store";
import type { GenerationContentOut } from "./model";

type ContentError = GenerationContentOut["data"]["error"];

/**
 * The error part of a failed generation's content, from its record: the last attempt's status
 * and provider, the attempts before it that failed. The record keeps no upstream error bodies,
 * so `raw` is null and an earlier attempt's message names its status.
 */
function errorOf(g: GenerationRecord): ContentError {
  if (g.errorMessage === null && g.finishReason !== "error") return null;
  const last = g.attempts.at(-1);
  const previous = g.attempts.slice(0, -1).filter((a) => a.status >= 400 || a.status === 0);
  return {
    message: g.errorMessage,
    status: last?.status ?? null,
    provider_name: last?.provider ?? null,
    raw: null,
    previous_errors: previous.map((a) => ({
      code: a.status,
      message: a.status === 0 ? "no answer from the provider" : `the provider answered ${a.status}`,
      provider_name: a.provider,
      raw: null,
    })),
  };
}

type ContentDeps = { store: Store; secrets: Pick<SecretBox, "open">; generations?: { settled(): Promise<void> } };

/**
 * The prompt and completion I/O logging kept of a generation, for a reader that `mayRead` the
 * generation's record. A generation the reader may not see and one whose content was not kept
 * (I/O logging off, sampled out, another key, or pruned after io_logging.retention_days) are
 * both 404. The API and the console differ only in who may read (their own rule of the record).
 */
export async function readGenerationContent(deps: ContentDeps, id: string, mayRead: (g: GenerationRecord) => boolean): Promise<GenerationContentOut> {
  await deps.generations?.settled();
  const g = await deps.store.generations.get(id);
  if (!g || !mayRead(g)) throw new GatewayError(404, `Generation not found: ${id}`);
  const kept = await deps.store.generationContents.get(id);
  if (!kept) throw new GatewayError(404, `No content was kept for generation ${id}: I/O logging did not keep it, or it has been pruned`);
  const content = JSON.parse(await deps.secrets.open(kept.sealed)) as KeptContent;
  return { data: { input: content.input, output: content.output, error: errorOf(g) } };
}

/** GET /generation/content: who may read it is who may read the generation (GET /generation), the key that made it or a management key. */
export function getGenerationContent(deps: ContentDeps, principal: Principal, id: string): Promise<GenerationContentOut> {
  return readGenerationContent(deps, id, (g) => principal.isManagement || g.keyHash === principal.key.hash);
}
