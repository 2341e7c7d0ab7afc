import type { SecretBox } from "../../crypto/secret-box";
import type { Logger } from "../../logger";
import type { QueuedObservation } from "../../store/observation-outbox-store";
import type { Store, WorkspaceRecord } from "../../store/store";
import { broadcastEnabled } from "../capture/io-logging";
import { observedGeneration } from "../capture/observed-generation";
import type { Destination, ObservedGeneration } from "../contract";
import { type Delivery, selectDeliveries } from "../pipeline/select-deliveries";
import { type OutboxContents, openOutboxRow } from "./observed-payload";
import type { ObservabilityParts } from "./parts";

export type DrainDeps = {
  store: Pick<Store, "observationOutbox" | "workspaces" | "generations" | "transaction">;
  secrets: Pick<SecretBox, "openOnce" | "sealSync">;
  clock: () => number;
  logger: Logger;
  parts: ObservabilityParts | null;
};

/** A claimed outbox row and what it is to become: one delivery per generation and destination left by the pipeline (none: the row simply goes). */
export type RowDeliveries = { seq: number; deliveries: Delivery[] };

/**
 * The forwarding pipeline for claimed outbox rows: for each generation of each row, its
 * workspace's enabled destinations → key list → filter rules → sampling → privacy
 * (selectDeliveries). A workspace that turned broadcast off since forwards nothing; with no
 * destinations wired (src/observability/jobs/parts.ts) nothing is forwarded. The workspaces and
 * destinations are read once per call, however many generations share them. A read that fails
 * throws: the caller gives the rows back for the next drain.
 */
export async function deliveriesOf(deps: DrainDeps, rows: readonly QueuedObservation[]): Promise<RowDeliveries[]> {
  const workspaces = new Map<string, WorkspaceRecord | undefined>();
  const destinations = new Map<string, readonly Destination[]>();
  const destinationsOf = async (workspaceId: string): Promise<readonly Destination[]> => {
    if (!workspaces.has(workspaceId)) workspaces.set(workspaceId, await deps.store.workspaces.find(workspaceId));
    const workspace = workspaces.get(workspaceId);
    if (!workspace || !broadcastEnabled(workspace.settings)) return [];
    if (!destinations.has(workspaceId)) destinations.set(workspaceId, await deps.parts!.destinations.enabledForWorkspace(workspaceId));
    return destinations.get(workspaceId)!;
  };
  const out: RowDeliveries[] = [];
  for (const row of rows) {
    const deliveries: Delivery[] = [];
    for (const generation of deps.parts ? await generationsOf(deps, row) : [])
      deliveries.push(...selectDeliveries(generation, await destinationsOf(generation.workspaceId)));
    out.push({ seq: row.seq, deliveries });
  }
  return out;
}

/** An outbox row's generations: whole in the row (earlier versions), or their records with the row's parts; those that cannot be had are logged and left out. */
async function generationsOf(deps: Pick<DrainDeps, "store" | "secrets" | "logger">, row: QueuedObservation): Promise<ObservedGeneration[]> {
  let contents: OutboxContents;
  try {
    contents = openOutboxRow(deps.secrets, row);
  } catch (err) {
    deps.logger.error("an observed generation could not be opened; it is not forwarded", { generation: row.generationId, error: String(err) });
    return [];
  }
  if ("generations" in contents) return contents.generations;
  const generations: ObservedGeneration[] = [];
  for (const { generationId, parts } of contents.parts) {
    const record = await deps.store.generations.get(generationId);
    if (record) generations.push(observedGeneration(record, parts));
    else deps.logger.error("an observed generation has no record; it is not forwarded", { generation: generationId });
  }
  return generations;
}
