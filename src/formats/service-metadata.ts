import { type Static, t } from "elysia";
import type { Settlement } from "../ir/settlement";
import { JsonInteger } from "./shared-schema";

/** `service_metadata` of every inference result, sent only when the client asks (X-Service-Experimental-Metadata: enabled). */
export const ServiceMetadataSchema = t.Object({
  requested: t.String(),
  model: t.String(),
  provider: t.Nullable(t.String()),
  generation_id: t.String(),
  is_byok: t.Boolean(),
  attempts: t.Array(t.Object({ model: t.String(), provider: t.String(), status: JsonInteger(), latency: t.Number() })),
});

export type ServiceMetadata = Static<typeof ServiceMetadataSchema>;

/**
 * The settlement carries the metadata as the gateway built it (gateway/metadata.ts); ir/ cannot
 * name this schema's type, so this is the one place that asserts it.
 */
export const serviceMetadataOf = (settlement: Settlement): ServiceMetadata | undefined => settlement.serviceMetadata as ServiceMetadata | undefined;

/** `{ service_metadata }` to spread last into a result, or nothing. */
export const withServiceMetadata = (settlement: Settlement): { service_metadata?: ServiceMetadata } => {
  const metadata = serviceMetadataOf(settlement);
  return metadata ? { service_metadata: metadata } : {};
};
