/** Generations waiting to be forwarded to observability destinations (sealed; the store never opens them). */

/**
 * `sealed`: the secret box's bytes (SQLite keeps them as a BLOB), or their base64 text (rows of
 * earlier versions; PostgreSQL stores and returns the text).
 */
export type ObservationRecord = { generationId: string; workspaceId: string; sealed: string | Uint8Array; createdAt: number };

/** An outbox row: `seq` orders them and names them for `renew` and `remove`. */
export type QueuedObservation = ObservationRecord & { seq: number };

/**
 * Written with the generation record (SettledGeneration.observation). A drain claims rows, sends
 * each generation's deliveries and removes a row once every delivery of it was sent or stored as
 * a job (src/observability/jobs/drain-outbox.ts): the row is what keeps a generation's forwarding
 * durable until then. A claim that ends (its runner died) lets another drain take the row again.
 */
export interface ObservationOutboxStore {
  /**
   * In one atomic step across every process: the oldest `limit` rows nobody holds (never claimed,
   * or their claim ended before `now`), in seq order, each now claimed by `owner` until
   * `expiresAt`. PostgreSQL: FOR UPDATE SKIP LOCKED.
   */
  claim(owner: string, now: number, expiresAt: number, limit: number): Promise<QueuedObservation[]>;
  /** moves the claims of those of `seqs` that `owner` still holds to `expiresAt`; returns the seqs it holds */
  renew(owner: string, seqs: readonly number[], expiresAt: number): Promise<number[]>;
  remove(seqs: readonly number[]): Promise<void>;
}
