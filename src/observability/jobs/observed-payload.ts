import type { SecretBox } from "../../crypto/secret-box";
import type { ObservedGeneration } from "../contract";

/**
 * A generation on its way to destinations, sealed with the secret box wherever it rests (the
 * outbox row, a delivery job's payload): it may carry prompts and completions.
 */
type SealedDocument = { generation: ObservedGeneration };

export const sealObserved = (secrets: Pick<SecretBox, "sealSync">, generation: ObservedGeneration): string => secrets.sealSync(JSON.stringify({ generation } satisfies SealedDocument));

export function openObserved(secrets: Pick<SecretBox, "openOnce">, sealed: string): ObservedGeneration {
  return (JSON.parse(secrets.openOnce(sealed)) as SealedDocument).generation;
}

/** What one destination may see, sealed: the outbox's own text when nothing is taken out, else the stripped generation sealed anew. */
export function sealedFor(secrets: Pick<SecretBox, "sealSync">, outboxSealed: string, full: ObservedGeneration, seen: ObservedGeneration): string {
  return seen === full ? outboxSealed : sealObserved(secrets, seen);
}
