import type { SecretBox } from "../../crypto/secret-box";
import type { JobKind } from "../../jobs/registry";
import type { Logger } from "../../logger";
import type { Store } from "../../store/store";
import type { SenderDeps } from "../contract";
import { deliverKind } from "./deliver-kind";
import { dispatchKind } from "./dispatch-kind";
import type { ObservabilityParts } from "./parts";

export type ObservabilityJobDeps = {
  store: Pick<Store, "workspaces" | "transaction">;
  secrets: SecretBox;
  clock: () => number;
  logger: Logger;
  senderDeps: SenderDeps;
  /** null: no destination store in this build; forwarded generations go nowhere */
  parts: ObservabilityParts | null;
};

/** Forwarding's job kinds: the pipeline per generation (dispatch) and one send per destination (deliver). */
export function observabilityJobKinds(deps: ObservabilityJobDeps): JobKind[] {
  return [dispatchKind(deps), deliverKind(deps)];
}
