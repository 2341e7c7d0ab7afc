import { SQL } from "bun";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sql";
import type { BunSQLQueryResultHKT } from "drizzle-orm/bun-sql/session";
import type { PgDatabase } from "drizzle-orm/pg-core";

/**
 * The pool's drizzle database, or a transaction of it (a transaction is a database too); without
 * the schema's relations: the stores build their queries from the tables (as on SQLite).
 */
export type Db = PgDatabase<BunSQLQueryResultHKT, Record<string, unknown>>;

/** What a store runs on: the pool, or the transaction of a `transaction()` call. */
export type Conn = { db: Db; inTransaction: boolean };

/**
 * Key of the transaction-scoped advisory lock that every `transaction()` (and every store
 * method that reads before it writes) takes first, on every instance: PostgreSQL's counterpart
 * of SQLite's BEGIN IMMEDIATE. An arbitrary fixed 64-bit constant.
 */
export const TRANSACTION_LOCK = 7_261_946_580_121_184_301n;

/**
 * Opens the pool. The database named in the URL is passed as an option too: Bun lets a
 * PGDATABASE variable of the environment override the URL's, and the store must open the URL.
 */
export function openPool(url: string, poolSize: number): { client: SQL; db: Db } {
  const database = decodeURIComponent(new URL(url).pathname.replace(/^\//, "")) || undefined;
  const client = new SQL(url, { max: poolSize, database, connectionTimeout: 10 });
  return { client, db: drizzle({ client }) };
}

/**
 * Runs fn in a transaction holding TRANSACTION_LOCK. The lock query is started before fn is
 * called and not awaited: fn's queries start after it and queue behind it on the transaction's
 * one connection (Bun.sql pipelines them; measured: 10 concurrent queries of one transaction
 * cost one round trip), so they run once the lock is held and the transaction costs one round
 * trip less. Inside a transaction already (which holds the lock), fn runs in a savepoint, so that
 * a failure (a unique violation to retry) does not abort the caller's transaction.
 */
export function lockedTransaction<T>(conn: Conn, fn: (db: Db) => Promise<T>): Promise<T> {
  if (conn.inTransaction) return conn.db.transaction((tx) => fn(tx));
  return conn.db.transaction(async (tx) => {
    const lock = tx.execute(sql.raw(`select pg_advisory_xact_lock(${TRANSACTION_LOCK})`)).then(() => undefined);
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      // the transaction must not end while the lock query is still in flight
      await lock.catch(() => undefined);
      throw err;
    }
    await lock;
    return result;
  });
}

/** The SQLSTATE of a PostgreSQL error, also when drizzle wrapped it (DrizzleQueryError.cause). */
export function sqlState(err: unknown): string | undefined {
  for (let e = err as { errno?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.errno === "string") return e.errno;
  }
  return undefined;
}

export const isUniqueViolation = (err: unknown): boolean => sqlState(err) === "23505";

/** int8 values of raw queries arrive as strings (Bun.sql without `bigint: true`). */
export const toNumber = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
