import type { IRReasoningPart, ReasoningOrigin } from "../ir/types";

/**
 * Anthropic clients carry reasoning only as `thinking` blocks with a `signature`.
 * When the reasoning came from another kind of upstream (OpenAI Responses
 * encrypted reasoning, say) we pack its origin, id and payload into the signature
 * so the client hands it back intact next turn and we can route it to the kind of
 * upstream that made it (and never to another).
 */
const PREFIX = "gwrs1.";

/** `u`: whether the text is a summary (Responses summary_text) rather than raw reasoning text. */
type Packed = { o: ReasoningOrigin; i?: string; e?: string; s?: string; u?: boolean };

export function packForeignSignature(part: IRReasoningPart): string {
  const packed: Packed = { o: part.origin };
  if (part.id) packed.i = part.id;
  if (part.encrypted) packed.e = part.encrypted;
  if (part.signature) packed.s = part.signature;
  if (part.summary !== undefined) packed.u = part.summary;
  return PREFIX + Buffer.from(JSON.stringify(packed)).toString("base64url");
}

/** Returns the fields a packed signature carries, or undefined for a native signature. */
export function unpackForeignSignature(signature: string): Pick<IRReasoningPart, "origin" | "id" | "encrypted" | "signature" | "summary"> | undefined {
  if (!signature.startsWith(PREFIX)) return undefined;
  try {
    const packed = JSON.parse(Buffer.from(signature.slice(PREFIX.length), "base64url").toString()) as Packed;
    const fields: Pick<IRReasoningPart, "origin" | "id" | "encrypted" | "signature" | "summary"> = {
      origin: packed.o,
      id: packed.i,
      encrypted: packed.e,
      signature: packed.s,
    };
    if (packed.u !== undefined) fields.summary = packed.u;
    return fields;
  } catch {
    return undefined;
  }
}
