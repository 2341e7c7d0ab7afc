import { type SecretBox, secretBoxOf } from "../crypto/secret-box";
import type { DestinationRecord, DestinationStore } from "../store/store";
import type { OpenConfig } from "./config-check";
import type { Destination, DestinationReader, DestinationType, FilterRules } from "./contract";
import { openConfig } from "./sealed-config";

/** A stored destination as the pipeline and senders see it: config opened. */
export function destinationOf(record: DestinationRecord, box: SecretBox): Destination {
  return destinationWith(record, openConfig(record, box));
}

/** The destination a record describes, with its config in clear (a stored one opened, or one being saved). */
export function destinationWith(record: Omit<DestinationRecord, "config" | "sealedConfig">, config: OpenConfig): Destination {
  return {
    id: record.id,
    workspaceId: record.workspaceId,
    type: record.type as DestinationType,
    name: record.name,
    enabled: record.enabled,
    privacyMode: record.privacyMode,
    samplingRate: record.samplingRate,
    apiKeyHashes: record.apiKeyHashes,
    filterRules: record.filterRules as FilterRules | null,
    broadcastGenerationCost: record.broadcastGenerationCost,
    broadcastGenerationIdentity: record.broadcastGenerationIdentity,
    broadcastGenerationRequestContext: record.broadcastGenerationRequestContext,
    config,
  };
}

/**
 * The contract's DestinationReader over a store. On the HTTP side the store is the cached one
 * (src/store/cached-store.ts): `enabledForWorkspace` is answered from a small cache that every
 * write on any instance clears through the invalidation bus; `byId` always reads the store, since
 * a delivery job must see a destination disabled, edited or deleted since it was enqueued.
 * Opened secrets come from the secret box's own bounded cache; the box is built from the
 * config on first use (a job worker that never delivers to a destination needs no master key).
 */
export function destinationReader(store: { destinations: DestinationStore }, sealing: Parameters<typeof secretBoxOf>[0]): DestinationReader {
  return {
    async enabledForWorkspace(workspaceId) {
      return (await store.destinations.enabledIn(workspaceId)).map((record) => destinationOf(record, secretBoxOf(sealing)));
    },
    async byId(id) {
      const record = await store.destinations.get(id);
      return record ? destinationOf(record, secretBoxOf(sealing)) : null;
    },
  };
}
