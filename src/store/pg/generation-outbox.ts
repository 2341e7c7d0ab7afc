/** What a generation record commits with beside it: the content I/O logging keeps, the generation to forward. */
import { and, asc, eq, inArray, isNull, lt, or } from "drizzle-orm";
import type { GenerationContentStore } from "../generation-content-store";
import type { ObservationOutboxStore } from "../observation-outbox-store";
import type { Conn } from "./client";
import { generationContents, observationOutbox } from "./schema";

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

/** What a claim returns: the row without its claim. */
const QUEUED = {
  seq: observationOutbox.seq,
  generationId: observationOutbox.generationId,
  workspaceId: observationOutbox.workspaceId,
  sealed: observationOutbox.sealed,
  createdAt: observationOutbox.createdAt,
};

/**
 * Written by the generation commit's statement (generations.ts). Claimed like leased jobs
 * (./jobs.ts): drains claiming at once skip each other's rows (FOR UPDATE SKIP LOCKED) instead of
 * waiting for them.
 */
export function pgObservationOutboxStore(conn: Conn): ObservationOutboxStore {
  const { db } = conn;
  const { seq, claimedBy, claimExpiresAt } = observationOutbox;
  return {
    async claim(owner, now, expiresAt, limit) {
      const free = db
        .select({ seq })
        .from(observationOutbox)
        .where(or(isNull(claimExpiresAt), lt(claimExpiresAt, now)))
        .orderBy(asc(seq))
        .limit(limit)
        .for("update", { skipLocked: true });
      const claimed = await db.update(observationOutbox).set({ claimedBy: owner, claimExpiresAt: expiresAt }).where(inArray(seq, free)).returning(QUEUED);
      // RETURNING promises no order
      return claimed.sort((a, b) => a.seq - b.seq);
    },
    async renew(owner, seqs, expiresAt) {
      if (seqs.length === 0) return [];
      const renewed = await db
        .update(observationOutbox)
        .set({ claimExpiresAt: expiresAt })
        .where(and(inArray(seq, [...seqs]), eq(claimedBy, owner)))
        .returning({ seq });
      return renewed.map((r) => r.seq);
    },
    async remove(seqs) {
      if (seqs.length > 0) await db.delete(observationOutbox).where(inArray(seq, [...seqs]));
    },
  };
}
