import type { Database } from "bun:sqlite";
import { migrations } from "./migrations.generated";

/** Applies the embedded migrations not yet applied, each in its own transaction. Safe to run concurrently. */
export function runMigrations(sqlite: Database): string[] {
  sqlite.exec("CREATE TABLE IF NOT EXISTS __migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const applied: string[] = [];
  for (const m of migrations) {
    const done = sqlite
      .transaction(() => {
        if (sqlite.query("SELECT 1 FROM __migrations WHERE tag = ?").get(m.tag)) return false;
        for (const statement of m.sql.split("--> statement-breakpoint")) {
          if (statement.trim()) sqlite.exec(statement);
        }
        sqlite.query("INSERT INTO __migrations (tag, applied_at) VALUES (?, ?)").run(m.tag, Date.now());
        return true;
      })
      .immediate();
    if (done) applied.push(m.tag);
  }
  return applied;
}

export function pendingMigrations(sqlite: Database): string[] {
  const rows = sqlite.query("SELECT tag FROM __migrations").all() as Array<{ tag: string }>;
  const have = new Set(rows.map((r) => r.tag));
  return migrations.map((m) => m.tag).filter((t) => !have.has(t));
}
