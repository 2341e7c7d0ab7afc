import { eq, lt } from "drizzle-orm";
import type { Conn } from "./client";
import { generationContents } from "./schema";
import type { GenerationContentStore } from "../generation-content-store";

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
