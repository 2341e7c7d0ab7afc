/** What a generation record commits with beside it: the content I/O logging keeps, the generation to forward. */
import type { Database } from "bun:sqlite";
import { asc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db, WriteStep } from "./client";
import { generationContents, observationOutbox } from "./schema";
import type { GenerationContentRecord, GenerationContentStore } from "../generation-content-store";
import type { ObservationOutboxStore, ObservationRecord } from "../observation-outbox-store";

export function sqliteGenerationContentStore(db: Db, write: WriteStep): GenerationContentStore {
  return {
    async get(generationId) {
      return db.select().from(generationContents).where(eq(generationContents.generationId, generationId)).get();
    },
    purgeBefore: (before) => write(() => db.delete(generationContents).where(lt(generationContents.createdAt, before)).returning({ id: generationContents.generationId }).all().length),
  };
}

/**
 * The outbox of a generation record, written by statements of the record's own write step
 * (prepared once per connection): the generation to forward and its kept content.
 */
export function outboxWriter(sqlite: Database): (observation: ObservationRecord | null, content: GenerationContentRecord | null) => void {
  const queued = sqlite.query(
    `INSERT INTO observation_outbox (generation_id, workspace_id, sealed, created_at) VALUES ($generationId, $workspaceId, $sealed, $createdAt)`,
  );
  const kept = sqlite.query(
    `INSERT INTO generation_contents (generation_id, workspace_id, key_hash, sealed, created_at)
     VALUES ($generationId, $workspaceId, $keyHash, $sealed, $createdAt) ON CONFLICT DO NOTHING`,
  );
  return (observation, content) => {
    if (observation) queued.run({ ...observation });
    if (content) kept.run({ ...content });
  };
}

export function sqliteObservationOutboxStore(db: Db, write: WriteStep): ObservationOutboxStore {
  const oldest = db.select().from(observationOutbox).orderBy(asc(observationOutbox.seq)).limit(sql.placeholder("limit")).prepare();
  return {
    async take(limit) {
      return oldest.all({ limit });
    },
    remove: (seqs) => write(() => void db.delete(observationOutbox).where(inArray(observationOutbox.seq, [...seqs])).run()),
  };
}
