import { eq } from "drizzle-orm";
import type { ApiKeyRecord, ByokRecord, Store, WorkspaceRecord } from "../store";
import { immediateTransaction, openDatabase } from "./client";
import { pendingMigrations, runMigrations } from "./migrate";
import { meta } from "./schema";
import { sqliteKeyStore } from "./keys";
import { sqliteKeyUsageStore } from "./key-usage";
import { sqliteGenerationStore } from "./generations";
import { sqliteReservationStore } from "./reservations";
import { sqlitePresetStore } from "./presets";
import { sqliteUserStore } from "./users";
import { sqliteWorkspaceStore } from "./workspaces";
import { sqliteMemberStore } from "./members";
import { sqliteByokStore } from "./byok";
import { ReadCache } from "./read-cache";

export function createSqliteStore(path: string, opts: { migrate?: boolean } = {}): Store {
  const { sqlite, db } = openDatabase(path);
  if (opts.migrate !== false) runMigrations(sqlite);
  const transaction = immediateTransaction(sqlite);
  const byokCache = new ReadCache<ByokRecord[]>();
  const keyCache = new ReadCache<ApiKeyRecord>();
  const workspaceCache = new ReadCache<WorkspaceRecord>();
  return {
    meta: {
      get: (key) => db.select().from(meta).where(eq(meta.key, key)).get()?.value,
      set: (key, value) => void db.insert(meta).values({ key, value }).onConflictDoUpdate({ target: meta.key, set: { value } }).run(),
    },
    users: sqliteUserStore(db),
    workspaces: sqliteWorkspaceStore(db, workspaceCache, () => byokCache.clear()),
    keys: sqliteKeyStore(db, keyCache),
    usage: sqliteKeyUsageStore(db, sqlite),
    generations: sqliteGenerationStore(db, sqlite),
    reservations: sqliteReservationStore(db, sqlite, transaction),
    presets: sqlitePresetStore(db, sqlite),
    members: sqliteMemberStore(db),
    byok: sqliteByokStore(db, byokCache),
    transaction,
    ready() {
      try {
        return pendingMigrations(sqlite).length === 0;
      } catch {
        return false;
      }
    },
    close: () => sqlite.close(),
  };
}

export { runMigrations, openDatabase };
