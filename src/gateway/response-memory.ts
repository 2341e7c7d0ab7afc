import type { AppContext } from "../app-context";
import type { ResponseMemory } from "./responses-state";

const MINUTE_MS = 60_000;

type ResponseObject = { id: string; status: string; output: Array<Record<string, unknown>> };

function keepable(response: unknown): response is ResponseObject {
  if (typeof response !== "object" || response === null) return false;
  const { id, status, output } = response as Record<string, unknown>;
  // a failed answer's items are partial: nothing to continue from
  return typeof id === "string" && (status === "completed" || status === "incomplete") && Array.isArray(output);
}

/**
 * Keeps a Responses answer as the client received it (`response` is the client-facing object:
 * the JSON body, or a stream's `response.completed`), so that later requests of the workspace
 * can refer to its items. Called where the answer's last bytes are produced, whoever produced
 * them. A failure to store is logged, not passed on: the answer itself is good.
 */
export async function rememberResponseItems(deps: Pick<AppContext, "store" | "config" | "logger">, memory: ResponseMemory, response: unknown, now: number): Promise<void> {
  if (!keepable(response)) return;
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

const TERMINAL = new Set(["response.completed", "response.incomplete"]);

/** The response object of the terminal `response.completed` / `response.incomplete` event in SSE text, if there is one. */
export function terminalResponseOf(sse: string): unknown {
  for (const block of sse.split("\n\n").reverse()) {
    const data = block
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""))
      .join("\n");
    if (!data.includes('"response.')) continue;
    try {
      const event = JSON.parse(data) as { type?: unknown; response?: unknown };
      if (typeof event.type === "string" && TERMINAL.has(event.type)) return event.response;
    } catch {
      // not JSON (a [DONE] sentinel, a comment): not the event we look for
    }
  }
  return undefined;
}
