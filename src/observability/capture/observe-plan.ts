import type { ApiKeyRecord, WorkspaceRecord } from "../../store/store";
import type { CapturedInput, ObservedOperation } from "./captured-content";
import { broadcastEnabled, ioLoggingKeeps } from "./io-logging";

/**
 * What happens to a generation once it is recorded, decided when the request is planned from the
 * workspace as the auth lookup read it (the read cache: no query). Null, the usual case, costs
 * nothing more: no content is collected, nothing is added to the record's commit.
 */
export type ObservePlan = Readonly<{
  operation: ObservedOperation;
  /** forward it to the workspace's destinations: the sealed generation in the record's outbox */
  broadcast: boolean;
  /** keep its prompt and completion (I/O logging): a sealed row in the record's outbox */
  keepContent: boolean;
  keyName: string;
  /** the request's content, read only when the record is committed */
  input: () => CapturedInput;
}>;

export type ObservedRequest = Readonly<{ id: string; sessionId: string | null; trace: Readonly<Record<string, unknown>> | null }>;

export function observePlan(
  workspace: Pick<WorkspaceRecord, "id" | "settings">,
  key: Pick<ApiKeyRecord, "hash" | "name">,
  request: ObservedRequest,
  operation: ObservedOperation,
  input: () => CapturedInput,
): ObservePlan | null {
  const broadcast = broadcastEnabled(workspace.settings);
  const keepContent = ioLoggingKeeps(workspace.id, workspace.settings, key.hash, request);
  if (!broadcast && !keepContent) return null;
  return { operation, broadcast, keepContent, keyName: key.name, input };
}
