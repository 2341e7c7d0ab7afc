import type { SecretBox } from "../../crypto/secret-box";
import type { ObservationRecord } from "../../store/observation-outbox-store";
import type { ObservedParts } from "../capture/observed-generation";
import type { ObservedGeneration } from "../contract";

/** A generation to forward as the request side hands it over: what its record lacks, unsealed until its commit. */
export type ObservedEntry = Readonly<{ generationId: string; workspaceId: string; parts: ObservedParts; createdAt: number }>;

/**
 * A generation on its way to destinations, sealed with the secret box wherever it rests: it may
 * carry prompts and completions. A delivery job's payload holds the whole generation as the
 * destination may see it. An outbox row holds only what the generations' own records do not
 * (`parts`: the content, the key's and provider's names, the operation), since the records commit
 * in the same transaction and the drain reads them back; one row for every forwarded generation
 * of a group commit (`batch`), so the serving thread seals and inserts once per commit, not once
 * per request. Rows of earlier versions hold one generation, whole or as parts.
 */
type SealedDocument = { generation: ObservedGeneration } | { parts: ObservedParts } | { batch: ReadonlyArray<{ generationId: string; parts: ObservedParts }> };

export const sealObserved = (secrets: Pick<SecretBox, "sealSync">, generation: ObservedGeneration): string =>
  secrets.sealSync(JSON.stringify({ generation } satisfies SealedDocument));

/**
 * The outbox row of a group commit's generations to forward. It rides with the first of their
 * records (`SettledGeneration.observation`), so it is stored only when that record is new: the
 * records of one commit are all new or, when a lost acknowledgement made a commit run again, all
 * stored already.
 */
export function sealObservedBatch(secrets: Pick<SecretBox, "sealBytesSync">, entries: readonly [ObservedEntry, ...ObservedEntry[]]): ObservationRecord {
  const [first] = entries;
  const document: SealedDocument = { batch: entries.map((e) => ({ generationId: e.generationId, parts: e.parts })) };
  return {
    generationId: first.generationId,
    workspaceId: first.workspaceId,
    sealed: secrets.sealBytesSync(JSON.stringify(document)),
    createdAt: first.createdAt,
  };
}

/** What an outbox row's document holds: whole generations (rows of earlier versions), or the parts their records lack, by generation id. */
export type OutboxContents = { generations: ObservedGeneration[] } | { parts: Array<{ generationId: string; parts: ObservedParts }> };

const openDocument = (secrets: Pick<SecretBox, "openOnce">, sealed: string | Uint8Array): SealedDocument =>
  JSON.parse(secrets.openOnce(sealed)) as SealedDocument;

export function openOutboxRow(secrets: Pick<SecretBox, "openOnce">, row: { generationId: string; sealed: string | Uint8Array }): OutboxContents {
  const document = openDocument(secrets, row.sealed);
  if ("generation" in document) return { generations: [document.generation] };
  if ("parts" in document) return { parts: [{ generationId: row.generationId, parts: document.parts }] };
  return { parts: [...document.batch] };
}

/** A delivery job's generation. */
export function openObserved(secrets: Pick<SecretBox, "openOnce">, sealed: string): ObservedGeneration {
  const document = openDocument(secrets, sealed);
  if (!("generation" in document)) throw new Error("not a sealed generation");
  return document.generation;
}
