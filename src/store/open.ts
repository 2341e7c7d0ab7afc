import type { DatabaseConfig } from "../config";
import { createSqliteStore, openDatabase, runMigrations } from "./sqlite";
import type { Store } from "./store";

/** The store DATABASE_URL names, migrated unless told otherwise (both dialects apply their embedded migrations). */
export async function openStore(database: DatabaseConfig, opts: { migrate?: boolean; writeLock?: SharedArrayBuffer } = {}): Promise<Store> {
  if (database.dialect === "sqlite") return createSqliteStore(database.path, opts);
  const { createPgStore } = await import("./pg");
  return createPgStore(database.url, { poolSize: database.poolSize, migrate: opts.migrate });
}

/** `gateway migrate`: applies pending migrations and names them. */
export async function migrateDatabase(database: DatabaseConfig): Promise<string[]> {
  if (database.dialect === "sqlite") {
    const { sqlite } = openDatabase(database.path);
    try {
      return runMigrations(sqlite);
    } finally {
      sqlite.close();
    }
  }
  const { migratePg } = await import("./pg");
  return migratePg(database.url);
}
