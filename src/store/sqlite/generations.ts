import { asc, eq, gte } from "drizzle-orm";
import type { Db } from "./client";
import { generations } from "./schema";
import type { GenerationRecord, GenerationStore } from "../store";

type Row = typeof generations.$inferSelect;

const toRecord = (row: Row): GenerationRecord => ({
  ...row,
  attempts: JSON.parse(row.attempts) as GenerationRecord["attempts"],
  trace: row.trace ? (JSON.parse(row.trace) as Record<string, unknown>) : null,
});

export function sqliteGenerationStore(db: Db): GenerationStore {
  return {
    insert(gen) {
      db.insert(generations).values({ ...gen, attempts: JSON.stringify(gen.attempts), trace: gen.trace ? JSON.stringify(gen.trace) : null }).run();
    },
    get(id) {
      const row = db.select().from(generations).where(eq(generations.id, id)).get();
      return row ? toRecord(row) : undefined;
    },
    since(since, limit) {
      return db.select().from(generations).where(gte(generations.createdAt, since)).orderBy(asc(generations.createdAt)).limit(limit).all().map(toRecord);
    },
  };
}
