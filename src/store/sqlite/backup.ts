import { Database } from "bun:sqlite";

/**
 * Writes a consistent copy of a SQLite database to `destination` with VACUUM INTO. The copy is
 * made inside one read transaction, so it is the database at one instant even while a gateway
 * keeps committing (WAL: the writer is never blocked), and it is compacted and self-contained
 * (no -wal or -shm file to carry along). The connection is read-only: a backup never changes
 * the source.
 */
export function backupSqliteFile(source: string, destination: string): void {
  const db = new Database(source, { readonly: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.query("VACUUM INTO ?").run(destination);
  } finally {
    db.close();
  }
}
