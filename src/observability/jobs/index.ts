import type { SecretBox } from "../../crypto/secret-box";
import type { JobKind } from "../../jobs/registry";
import type { SenderDeps } from "../contract";
import { deliverKind } from "./deliver-kind";
import type { ObservabilityParts } from "./parts";

export type ObservabilityJobDeps = {
  secrets: SecretBox;
  senderDeps: SenderDeps;
  /** null: no destination store in this build; forwarded generations go nowhere */
  parts: ObservabilityParts | null;
};

/** Forwarding's job kind: one send per destination and generation (the outbox pump makes them). */
export function observabilityJobKinds(deps: ObservabilityJobDeps): JobKind[] {
  return [deliverKind(deps)];
}
