import type { DestinationReader, SenderRegistry } from "../contract";

/**
 * What forwarding needs from the parts built beside it: the destinations (the obs-api store,
 * behind its cache) and the sender of each destination type (src/observability/senders.ts).
 */
export type ObservabilityParts = Readonly<{ destinations: DestinationReader; senders: SenderRegistry }>;
