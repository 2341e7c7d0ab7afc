/**
 * PostgreSQL for tests: each test file gets a database of its own, created on the server of
 * TEST_DATABASE_URL under a unique name and dropped (WITH (FORCE)) afterwards. Without
 * TEST_DATABASE_URL the PostgreSQL tests are skipped, and one line says so.
 */
import { describe } from "bun:test";
import { SQL } from "bun";

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "";

let warned = false;

/** `describe`, skipped (with one line on stderr, once per process) when TEST_DATABASE_URL is unset. */
export function describePostgres(label: string, fn: () => void): void {
  if (!TEST_DATABASE_URL && !warned) {
    warned = true;
    console.warn("PostgreSQL tests skipped: TEST_DATABASE_URL is not set (e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test)");
  }
  describe.skipIf(!TEST_DATABASE_URL)(label, fn);
}

/** The URL of TEST_DATABASE_URL's server with another database name. */
export function databaseUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A new empty database, uniquely named; drop() terminates its connections and removes it. */
export async function createTestDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  if (!TEST_DATABASE_URL) throw new Error("TEST_DATABASE_URL is not set");
  const name = `gw_test_${process.pid}_${Date.now().toString(36)}_${crypto.randomUUID().slice(0, 8)}`;
  await admin(async (sql) => {
    await sql.unsafe(`create database "${name}"`);
  });
  return {
    name,
    url: databaseUrl(name),
    drop: () => dropDatabase(name),
  };
}

export function dropDatabase(name: string): Promise<void> {
  return admin(async (sql) => {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
  });
}

async function admin(fn: (sql: SQL) => Promise<void>): Promise<void> {
  const sql = new SQL(TEST_DATABASE_URL, { max: 1, database: new URL(TEST_DATABASE_URL).pathname.slice(1) || undefined });
  try {
    await fn(sql);
  } finally {
    await sql.close();
  }
}

/** Empties every table but __migrations (identities restart), so a test starts from a migrated, empty database. */
export async function resetDatabase(url: string): Promise<void> {
  const sql = new SQL(url, { max: 1, database: new URL(url).pathname.slice(1) });
  try {
    const rows: Array<{ name: string }> = await sql`select tablename as name from pg_tables where schemaname = 'public' and tablename <> '__migrations'`;
    if (rows.length > 0) await sql.unsafe(`truncate table ${rows.map((r) => `"${r.name}"`).join(", ")} restart identity`);
  } finally {
    await sql.close();
  }
}
