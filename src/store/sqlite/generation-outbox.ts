/** What a generation record commits with beside it: the content I/O logging keeps, the generation to forward. */
import type { Database } from "bun:sqlite";
import { eq, lt } from "drizzle-orm";
import type { GenerationContentRecord, GenerationContentStore } from "../generation-content-store";
import type { ObservationOutboxStore, ObservationRecord, QueuedObservation } from "../observation-outbox-store";
import type { Db, WriteStep } from "./client";
import { generationContents } from "./schema";

export function sqliteGenerationContentStore(db: Db, write: WriteStep): GenerationContentStore {
  return {
    async get(generationId) {
      return db.select().from(generationContents).where(eq(generationContents.generationId, generationId)).get();
    },
    purgeBefore: (before) =>
      write(
        () => db.delete(generationContents).where(lt(generationContents.createdAt, before)).returning({ id: generationContents.generationId }).all().length,
      ),
  };
}

/**
 * The outbox of a generation record, written by statements of the record's own write step
 * (prepared once per connection): the generation to forward and its kept content.
 */
export function outboxWriter(sqlite: Database): (observation: ObservationRecord | null, content: GenerationContentRecord | null) => void {
  const queued = sqlite.query(`INSERT INTO observation_outbox (generation_id, workspace_id, created_at) VALUES ($generationId, $workspaceId, $createdAt)`);
  const payload = sqlite.query(`INSERT INTO observation_outbox_payloads (seq, sealed) VALUES ($seq, $sealed)`);
  const kept = sqlite.query(
    `INSERT INTO generation_contents (generation_id, workspace_id, key_hash, sealed, created_at)
     VALUES ($generationId, $workspaceId, $keyHash, $sealed, $createdAt) ON CONFLICT DO NOTHING`,
  );
  return (observation, content) => {
    if (observation) {
      const { sealed, ...row } = observation;
      payload.run({ seq: Number(queued.run(row).lastInsertRowid), sealed });
    }
    if (content) kept.run({ ...content });
  };
}

/**
 * Claimed and renewed like leased jobs (./jobs.ts): one write step each. A claim updates the
 * rows, then reads their payloads (observation_outbox_payloads: a claim does not rewrite them).
 */
export function sqliteObservationOutboxStore(sqlite: Database, write: WriteStep): ObservationOutboxStore {
  const claim = sqlite.query<Omit<QueuedObservation, "sealed">, Record<string, string | number>>(
    `UPDATE observation_outbox SET claimed_by = $owner, claim_expires_at = $expires
     WHERE seq IN (SELECT seq FROM observation_outbox WHERE claim_expires_at IS NULL OR claim_expires_at < $now ORDER BY seq LIMIT $limit)
     RETURNING seq, generation_id AS generationId, workspace_id AS workspaceId, created_at AS createdAt`,
  );
  const payloads = sqlite.query<{ seq: number; sealed: string | Uint8Array }, Record<string, string>>(
    `SELECT seq, sealed FROM observation_outbox_payloads WHERE seq IN (SELECT value FROM json_each($seqs))`,
  );
  const claimed = (rows: ReadonlyArray<Omit<QueuedObservation, "sealed">>): QueuedObservation[] => {
    if (rows.length === 0) return [];
    const sealed = new Map(payloads.all({ seqs: JSON.stringify(rows.map((r) => r.seq)) }).map((p) => [p.seq, p.sealed]));
    // a row without its payload cannot be forwarded: it goes to the drain as an empty seal, which fails to open and is logged
    return rows.map((r) => ({ ...r, sealed: sealed.get(r.seq) ?? "" })).sort((a, b) => a.seq - b.seq);
  };
  const renew = sqlite.query<{ seq: number }, Record<string, string | number>>(
    `UPDATE observation_outbox SET claim_expires_at = $expires WHERE seq IN (SELECT value FROM json_each($seqs)) AND claimed_by = $owner RETURNING seq`,
  );
  // prepared, not built per call: a settlement removes the hundreds of rows of a drain at once
  const remove = sqlite.query<unknown, Record<string, string>>(`DELETE FROM observation_outbox WHERE seq IN (SELECT value FROM json_each($seqs))`);
  const removePayloads = sqlite.query<unknown, Record<string, string>>(
    `DELETE FROM observation_outbox_payloads WHERE seq IN (SELECT value FROM json_each($seqs))`,
  );
  return {
    // RETURNING promises no order: claimed() sorts
    claim: (owner, now, expiresAt, limit) => write(() => claimed(claim.all({ owner, now, expires: expiresAt, limit }))),
    renew: (owner, seqs, expiresAt) => write(() => renew.all({ owner, seqs: JSON.stringify(seqs), expires: expiresAt }).map((r) => r.seq)),
    remove: (seqs) =>
      write(() => {
        const params = { seqs: JSON.stringify(seqs) };
        remove.run(params);
        removePayloads.run(params);
      }),
  };
}
