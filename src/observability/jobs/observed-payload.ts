import type { SecretBox } from "../../crypto/secret-box";
import type { ObservedParts } from "../capture/observed-generation";
import type { ObservedGeneration } from "../contract";

/**
 * A generation on its way to destinations, sealed with the secret box wherever it rests: it may
 * carry prompts and completions. A delivery job's payload holds the whole generation as the
 * destination may see it; an outbox row holds only what the generation's own record does not
 * (`parts`: the content, the key's and provider's names, the operation), since the record commits
 * in the same transaction and the drain reads it back. Outbox rows of earlier versions hold the
 * whole generation.
 */
type SealedDocument = { generation: ObservedGeneration } | { parts: ObservedParts };

export const sealObserved = (secrets: Pick<SecretBox, "sealSync">, generation: ObservedGeneration): string => secrets.sealSync(JSON.stringify({ generation } satisfies SealedDocument));

/** What the request side seals into the outbox: about 40 % of the whole generation's bytes for a short chat, sealed and written on the serving thread. */
export const sealObservedParts = (secrets: Pick<SecretBox, "sealSync">, parts: ObservedParts): string => secrets.sealSync(JSON.stringify({ parts } satisfies SealedDocument));

/** An outbox row's document: the whole generation (earlier versions), or the parts its record lacks. */
export function openOutboxDocument(secrets: Pick<SecretBox, "openOnce">, sealed: string): SealedDocument {
  return JSON.parse(secrets.openOnce(sealed)) as SealedDocument;
}

/** A delivery job's generation. */
export function openObserved(secrets: Pick<SecretBox, "openOnce">, sealed: string): ObservedGeneration {
  const document = openOutboxDocument(secrets, sealed);
  if (!("generation" in document)) throw new Error("not a sealed generation");
  return document.generation;
}
