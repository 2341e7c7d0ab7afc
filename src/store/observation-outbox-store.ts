/** Generations waiting to be forwarded to observability destinations (sealed; the store never opens them). */

export type ObservationRecord = { generationId: string; workspaceId: string; sealed: string; createdAt: number };

/** An outbox row: `seq` orders them and names them for `remove`. */
export type QueuedObservation = ObservationRecord & { seq: number };

/**
 * Written with the generation record (SettledGeneration.observation). Draining is idempotent
 * (the delivery jobs it makes are keyed), so two drains taking the same rows do no harm.
 */
export interface ObservationOutboxStore {
  /** the oldest `limit` rows, in order */
  take(limit: number): Promise<QueuedObservation[]>;
  remove(seqs: readonly number[]): Promise<void>;
}
