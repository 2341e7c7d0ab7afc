import type { ApiKeyRecord, WorkspaceRecord } from "../../store/store";
import { type ForwardTarget, mayForward } from "../pipeline/select-deliveries";
import type { CapturedInput, ObservedOperation } from "./captured-content";
import type { DestinationTargets } from "./destination-targets";
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

/**
 * The enabled destinations of a workspace that forwards, or null when it does not forward: the
 * usual request awaits nothing here. A lookup that fails answers null (not known: the request is
 * captured and the pipeline decides), so forwarding never fails an answer.
 */
export function forwardTargets(
  targets: DestinationTargets,
  workspace: Pick<WorkspaceRecord, "id" | "settings">,
): Promise<readonly ForwardTarget[] | null> | null {
  return broadcastEnabled(workspace.settings) ? targets(workspace.id).catch(() => null) : null;
}

export const NO_TARGETS: readonly ForwardTarget[] = Object.freeze([]);

/**
 * `targets`: the workspace's enabled destinations (forwardTargets). A request none of them takes
 * (another key's destinations, or its session sampled out by every one) is not forwarded, so a
 * destination for one key or at a low sampling rate costs the other requests nothing. Null: not
 * known (a finished video, off any request's path, or a lookup that failed): every generation of
 * a forwarding workspace is captured and the pipeline alone decides.
 */
export function observePlan(
  workspace: Pick<WorkspaceRecord, "id" | "settings">,
  key: Pick<ApiKeyRecord, "hash" | "name">,
  request: ObservedRequest,
  operation: ObservedOperation,
  input: () => CapturedInput,
  targets: readonly ForwardTarget[] | null,
): ObservePlan | null {
  const broadcast = broadcastEnabled(workspace.settings) && (targets === null || mayForward(targets, key.hash, request));
  const keepContent = ioLoggingKeeps(workspace.id, workspace.settings, key.hash, request);
  if (!broadcast && !keepContent) return null;
  return { operation, broadcast, keepContent, keyName: key.name, input };
}
