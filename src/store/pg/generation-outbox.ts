/** What a generation record commits with beside it: the content I/O logging keeps, the generation to forward. */
import { asc, eq, inArray, lt } from "drizzle-orm";
import type { Conn } from "./client";
import { generationContents, observationOutbox } from "./schema";
import type { GenerationContentStore } from "../generation-content-store";
import type { ObservationOutboxStore } from "../observation-outbox-store";

/** Read and pruned here; written by the generation commit's statement (generations.ts). */
export function pgGenerationContentStore(conn: Conn): GenerationContentStore {
  const { db } = conn;
  return {
    async get(generationId) {
      const [row] = await db.select().from(generationContents).where(eq(generationContents.generationId, generationId));
      return row;
    },
    async purgeBefore(before) {
      const gone = await db.delete(generationContents).where(lt(generationContents.createdAt, before)).returning({ id: generationContents.generationId });
      return gone.length;
    },
  };
}

/** Written by the generation commit's statement (generations.ts). */
export function pgObservationOutboxStore(conn: Conn): ObservationOutboxStore {
  const { db } = conn;
  return {
    async take(limit) {
      return db.select().from(observationOutbox).orderBy(asc(observationOutbox.seq)).limit(limit);
    },
    async remove(seqs) {
      if (seqs.length > 0) await db.delete(observationOutbox).where(inArray(observationOutbox.seq, [...seqs]));
    },
  };
}
