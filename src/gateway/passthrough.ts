import { NO_UNKNOWN_FIELDS, type UnknownFields } from "../formats/unknown-fields";
import type { PassthroughCodec } from "../ir/codec";
import { upstreamApis } from "../providers/apis";
import type { Candidate } from "./candidates";
import type { InferencePlan } from "./plan";

/** Whether the candidate's upstream speaks the client's own format (an Azure deployment speaks Chat Completions). */
const sameFormat = (plan: Pick<InferencePlan, "format">, candidate: Candidate): boolean =>
  upstreamApis[candidate.endpoint.provider.api].format(candidate.endpoint.upstreamModel) === plan.format;

/**
 * The one place that decides whether an answer passes through: when the serving upstream speaks
 * the client's own format, its JSON or SSE goes to the client as it came (rewritten only where
 * the gateway must), still decoded for billing; any other pair is translated through the IR.
 */
export function passthroughFor(plan: InferencePlan, candidate: Candidate): PassthroughCodec | null {
  return sameFormat(plan, candidate) ? plan.inbound.passthrough : null;
}

/**
 * The request side of the same rule: the client's top-level fields the gateway does not know
 * (a vLLM server's `chat_template_kwargs`, a field its provider added after this release) go to an
 * upstream of the client's own format as they came; a translated pair gets only what the IR carries.
 */
export function unknownFieldsFor(plan: Pick<InferencePlan, "format" | "unknownFields">, candidate: Candidate): UnknownFields {
  return sameFormat(plan, candidate) ? plan.unknownFields : NO_UNKNOWN_FIELDS;
}
