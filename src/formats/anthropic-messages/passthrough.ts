import type { EncodeContext } from "../../ir/codec";
import type { Settlement } from "../../ir/settlement";
import type { IRResult } from "../../ir/types";
import type { JsonObject } from "../json-object";
import { withServiceMetadata } from "../service-metadata";
import { encodeSettledUsage } from "./usage";

/**
 * Same format in and out (a Messages client, an anthropic-messages upstream): the upstream's
 * message reaches the client as it came, content blocks the IR cannot carry (server tool use,
 * citations...) included. The gateway changes its id and model and the usage (normalised as
 * encode-result does, with what it charged).
 */
export function rewriteMessagesResult(raw: JsonObject, result: IRResult, ctx: EncodeContext, settlement: Settlement): JsonObject {
  return { ...raw, id: ctx.generationId, model: ctx.model, usage: encodeSettledUsage(result.usage, settlement), ...withServiceMetadata(settlement) };
}
