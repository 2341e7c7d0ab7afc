import type { DestinationSender, DestinationType, SenderRegistry } from "./contract";
import { nativeSenders } from "./native";
import { otlpSenders } from "./otlp";

/**
 * Every destination sender the gateway has, one per type. The OTLP family (src/observability/otlp/)
 * and the native senders (src/observability/native/).
 */
const SENDERS: readonly DestinationSender[] = [...otlpSenders, ...nativeSenders];

const BY_TYPE: ReadonlyMap<DestinationType, DestinationSender> = new Map(SENDERS.map((sender) => [sender.type, sender]));

/** The sender of a type. A type without one throws: the API refuses to save such a destination, so none exists. */
export const senderFor: SenderRegistry = (type) => {
  const sender = BY_TYPE.get(type);
  if (!sender) throw new Error(`no observability sender for destination type '${type}'`);
  return sender;
};
