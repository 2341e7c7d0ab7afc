import type { SecretBox } from "../../crypto/secret-box";
import type { Logger } from "../../logger";
import type { QueuedObservation } from "../../store/observation-outbox-store";
import type { Store, WorkspaceRecord } from "../../store/store";
import { broadcastEnabled } from "../capture/io-logging";
import { observedGeneration } from "../capture/observed-generation";
import type { Destination, ObservedGeneration } from "../contract";
import { selectDeliveries, type Delivery } from "../pipeline/select-deliveries";
import { openOutboxDocument } from "./observed-payload";
import type { ObservabilityParts } from "./parts";

export type DrainDeps = {
  store: Pick<Store, "observationOutbox" | "workspaces" | "generations" | "transaction">;
  secrets: Pick<SecretBox, "openOnce" | "sealSync">;
  clock: () => number;
  logger: Logger;
  parts: ObservabilityParts | null;
};

/** A claimed outbox row and what it is to become: one delivery per destination left by the pipeline (none: the row simply goes). */
export type RowDeliveries = { seq: number; generationId: string; deliveries: Delivery[] };

/**
 * The forwarding pipeline for claimed outbox rows: for each, its workspace's enabled
 * destinations → key list → filter rules → sampling → privacy (selectDeliveries). A workspace
 * that turned broadcast off since forwards nothing; with no destinations wired
 * (src/observability/jobs/parts.ts) nothing is forwarded. The workspaces and destinations are
 * read once per call, however many rows share them. A read that fails throws: the caller gives
 * the rows back for the next drain.
 */
export async function deliveriesOf(deps: DrainDeps, rows: readonly QueuedObservation[]): Promise<RowDeliveries[]> {
  const workspaces = new Map<string, WorkspaceRecord | undefined>();
  const destinations = new Map<string, readonly Destination[]>();
  const out: RowDeliveries[] = [];
  for (const row of rows) {
    const none = { seq: row.seq, generationId: row.generationId, deliveries: [] };
    if (!deps.parts) {
      out.push(none);
      continue;
    }
    if (!workspaces.has(row.workspaceId)) workspaces.set(row.workspaceId, await deps.store.workspaces.find(row.workspaceId));
    const workspace = workspaces.get(row.workspaceId);
    if (!workspace || !broadcastEnabled(workspace.settings)) {
      out.push(none);
      continue;
    }
    if (!destinations.has(row.workspaceId)) destinations.set(row.workspaceId, await deps.parts.destinations.enabledForWorkspace(row.workspaceId));
    const full = await observedOrLogged(deps, row);
    out.push(full ? { ...none, deliveries: selectDeliveries(full, destinations.get(row.workspaceId)!) } : none);
  }
  return out;
}

/** An outbox row's generation: whole in the row (earlier versions), or its record with the row's parts; null (logged) when it cannot be had. */
async function observedOrLogged(deps: Pick<DrainDeps, "store" | "secrets" | "logger">, row: { generationId: string; sealed: string }): Promise<ObservedGeneration | null> {
  let document: ReturnType<typeof openOutboxDocument>;
  try {
    document = openOutboxDocument(deps.secrets, row.sealed);
  } catch (err) {
    deps.logger.error("an observed generation could not be opened; it is not forwarded", { generation: row.generationId, error: String(err) });
    return null;
  }
  if ("generation" in document) return document.generation;
  const record = await deps.store.generations.get(row.generationId);
  if (!record) {
    deps.logger.error("an observed generation has no record; it is not forwarded", { generation: row.generationId });
    return null;
  }
  return observedGeneration(record, document.parts);
}
