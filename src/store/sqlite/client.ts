import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import * as schema from "./schema";

export type Db = BunSQLiteDatabase<typeof schema>;

/**
 * WAL with synchronous=NORMAL: measured ~39.5k commits/s against ~5.8k for FULL, with no
 * acknowledged row lost under SIGKILL (pitfalls #14); only power loss can drop the last commits.
 */
export function openDatabase(path: string): { sqlite: Database; db: Db } {
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  return { sqlite, db: drizzle(sqlite, { schema }) };
}

/**
 * BEGIN IMMEDIATE ... COMMIT with statements prepared once (a read-modify-write must hold the
 * write lock from its first read). Nested calls join the open transaction.
 */
export function immediateTransaction(sqlite: Database): <T>(fn: () => T) => T {
  const begin = sqlite.query("BEGIN IMMEDIATE");
  const commit = sqlite.query("COMMIT");
  const rollback = sqlite.query("ROLLBACK");
  return <T>(fn: () => T): T => {
    if (sqlite.inTransaction) return fn();
    begin.run();
    try {
      const result = fn();
      commit.run();
      return result;
    } catch (err) {
      if (sqlite.inTransaction) rollback.run();
      throw err;
    }
  };
}
