import type { Database } from "bun:sqlite";
import { asc, eq, getTableColumns, gte } from "drizzle-orm";
import type { Db, SqliteWriter, WriteStep } from "./client";
import { generations } from "./schema";
import { spendAdder } from "./key-usage";
import { reservationReleaser } from "./reservations";
import type { GenerationRecord, GenerationStore } from "../store";

type Row = typeof generations.$inferSelect;

const toRecord = (row: Row): GenerationRecord => ({
  ...row,
  attempts: JSON.parse(row.attempts) as GenerationRecord["attempts"],
  trace: row.trace ? (JSON.parse(row.trace) as Record<string, unknown>) : null,
});

export function sqliteGenerationStore(db: Db, sqlite: Database, write: WriteStep, writer: SqliteWriter): GenerationStore {
  // one statement prepared once, its columns taken from the schema so they cannot drift
  const columns = Object.entries(getTableColumns(generations)).map(([key, column]) => ({ key, name: column.name }));
  const insert = sqlite.query(
    `INSERT INTO generations (${columns.map((c) => `"${c.name}"`).join(", ")}) VALUES (${columns.map((c) => `$${c.name}`).join(", ")}) ON CONFLICT(id) DO NOTHING`,
  );
  const addSpend = spendAdder(sqlite);
  const release = reservationReleaser(sqlite);
  const toParams = (gen: GenerationRecord) => {
    const row: Record<string, unknown> = { ...gen, attempts: JSON.stringify(gen.attempts), trace: gen.trace ? JSON.stringify(gen.trace) : null };
    const params: Record<string, string | number | null> = {};
    for (const c of columns) {
      const v = row[c.key as keyof typeof row];
      params[c.name] = typeof v === "boolean" ? (v ? 1 : 0) : ((v ?? null) as string | number | null);
    }
    return params;
  };
  return {
    commit: (batch) =>
      write(() =>
        writer.atomic(() => {
          for (const { record, reservationId, spend } of batch) {
            // a record already stored was committed by an earlier try: its spend is in too
            const inserted = insert.run(toParams(record)).changes === 1;
            if (inserted && spend && spend.nanos > 0) addSpend(record.keyHash, spend);
            if (reservationId) release(reservationId);
          }
        }),
      ),
    async get(id) {
      const row = db.select().from(generations).where(eq(generations.id, id)).get();
      return row ? toRecord(row) : undefined;
    },
    async since(since, limit) {
      return db.select().from(generations).where(gte(generations.createdAt, since)).orderBy(asc(generations.createdAt), asc(generations.id)).limit(limit).all().map(toRecord);
    },
  };
}
