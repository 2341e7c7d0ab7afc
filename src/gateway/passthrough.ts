import type { PassthroughCodec } from "../ir/codec";
import type { Candidate } from "./candidates";
import type { InferencePlan } from "./plan";

/**
 * The one place that decides whether an answer passes through: when the serving upstream speaks
 * the client's own format, its JSON or SSE goes to the client as it came (rewritten only where
 * the gateway must), still decoded for billing; any other pair is translated through the IR.
 */
export function passthroughFor(plan: InferencePlan, candidate: Candidate): PassthroughCodec | null {
  return candidate.endpoint.provider.api === plan.format ? plan.inbound.passthrough : null;
}
