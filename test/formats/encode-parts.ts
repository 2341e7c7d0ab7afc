import type { InboundStreamEncoder } from "../../src/ir/codec";
import { NO_CHARGE, type Settlement } from "../../src/ir/settlement";
import type { IRStreamPart } from "../../src/ir/types";

/** SSE of a whole IR part sequence, the way the gateway drives an encoder: `finish` goes through finish() with the settlement. */
export function encodeParts(encoder: InboundStreamEncoder, parts: IRStreamPart[], settlement: Settlement = NO_CHARGE): string {
  return parts.map((part) => (part.type === "finish" ? encoder.finish(part, settlement) : encoder.encode(part))).join("");
}
