import type { AppContext } from "../app-context";
import { isKeepable } from "../formats/openai-responses/state";
import type { ResponseMemory } from "./responses-state";

export { terminalResponseOf } from "../formats/openai-responses/state";

const MINUTE_MS = 60_000;

/**
 * Keeps a Responses answer as the client received it (`response` is the client-facing object:
 * the JSON body, or a stream's `response.completed`), so that later requests of the workspace
 * can refer to its items. Called where the answer's last bytes are produced, whoever produced
 * them. A failure to store is logged, not passed on: the answer itself is good.
 */
export async function rememberResponseItems(
  deps: Pick<AppContext, "store" | "config" | "logger">,
  memory: ResponseMemory,
  response: unknown,
  now: number,
): Promise<void> {
  if (!isKeepable(response)) return;
  try {
    await deps.store.responses.save({
      id: response.id,
      workspaceId: memory.workspaceId,
      input: [...memory.input],
      output: response.output,
      createdAt: now,
      expiresAt: now + deps.config.responses.itemRetentionMinutes * MINUTE_MS,
      referencedItemIds: [...memory.referencedItemIds],
    });
  } catch (err) {
    deps.logger.error("could not keep the items of a Responses answer", { id: response.id, error: String(err) });
  }
}
