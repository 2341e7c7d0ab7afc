import type { EncodeContext } from "../ir/codec";
import type { InferencePlan } from "./plan";

/** The headers of a streamed answer: server-sent events, never cached or buffered by a proxy. */
export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};

/** What the inbound encoders need beside the IR: the generation id as the answer's id, the model and provider that answered. */
export function encodeContext(plan: InferencePlan, model: string, provider?: string): EncodeContext {
  return {
    generationId: plan.facts.id,
    model,
    created: Math.floor(plan.facts.startedAt / 1000),
    request: plan.ir,
    ...(provider === undefined ? {} : { provider }),
  };
}
