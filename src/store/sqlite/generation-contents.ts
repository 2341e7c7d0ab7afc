import type { Database } from "bun:sqlite";
import { eq, lt } from "drizzle-orm";
import type { Db, WriteStep } from "./client";
import { generationContents } from "./schema";
import type { GenerationContentRecord, GenerationContentStore } from "../generation-content-store";
import type { NewJob } from "../job-store";
import { payloadText } from "../job-rows";

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
 * (prepared once per connection): its jobs (a key already stored is skipped) and its kept content.
 */
export function outboxWriter(sqlite: Database): (jobs: readonly NewJob[], content: GenerationContentRecord | null) => void {
  const job = sqlite.query(
    `INSERT INTO jobs (id, kind, key, payload, state, run_at, attempts, created_at, updated_at)
     VALUES ($id, $kind, $key, $payload, 'pending', $runAt, 0, $now, $now) ON CONFLICT DO NOTHING`,
  );
  const kept = sqlite.query(
    `INSERT INTO generation_contents (generation_id, workspace_id, key_hash, sealed, created_at)
     VALUES ($generationId, $workspaceId, $keyHash, $sealed, $createdAt) ON CONFLICT DO NOTHING`,
  );
  return (jobs, content) => {
    for (const j of jobs) job.run({ id: j.id, kind: j.kind, key: j.key ?? null, payload: payloadText(j.payload), runAt: j.runAt, now: j.now });
    if (content) kept.run({ ...content });
  };
}
