import type { SQL } from "bun";
import { migrations } from "./migrations.generated";

/** Session-level advisory lock held by the instance applying migrations (an arbitrary fixed 64-bit constant). */
export const MIGRATION_LOCK = 7_261_946_580_121_184_302n;

const CREATE_TABLE = "create table if not exists __migrations (tag text primary key, applied_at bigint not null)";

/**
 * Applies the embedded migrations not yet applied, each in its own transaction, on one reserved
 * connection that holds MIGRATION_LOCK for the whole run: instances starting at once queue here,
 * and each migration is applied once. Returns the tags applied by this call.
 */
export async function runPgMigrations(client: SQL): Promise<string[]> {
  const conn = await client.reserve();
  let locked = false;
  try {
    await conn.unsafe(`select pg_advisory_lock(${MIGRATION_LOCK})`);
    locked = true;
    await conn.unsafe(CREATE_TABLE);
    const rows: Array<{ tag: string }> = await conn`select tag from __migrations`;
    const have = new Set(rows.map((r) => r.tag));
    const applied: string[] = [];
    for (const m of migrations) {
      if (have.has(m.tag)) continue;
      await conn.begin(async (tx) => {
        for (const statement of m.sql.split("--> statement-breakpoint")) {
          if (statement.trim()) await tx.unsafe(statement);
        }
        await tx`insert into __migrations (tag, applied_at) values (${m.tag}, ${Date.now()})`;
      });
      applied.push(m.tag);
    }
    await conn.unsafe(`select pg_advisory_unlock(${MIGRATION_LOCK})`);
    locked = false;
    return applied;
  } finally {
    // a connection that may still hold the session lock must not go back to the pool
    if (locked) await conn.close().catch(() => undefined);
    else await conn.release();
  }
}

/** Embedded migrations not applied yet; throws when the database cannot be read. */
export async function pendingPgMigrations(client: SQL): Promise<string[]> {
  const rows: Array<{ tag: string }> = await client`select tag from __migrations`;
  const have = new Set(rows.map((r) => r.tag));
  return migrations.map((m) => m.tag).filter((t) => !have.has(t));
}
