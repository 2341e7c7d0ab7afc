import type { Database } from "bun:sqlite";
import { eq } from "drizzle-orm";
import type { Store, StoreTables } from "../store";
import { sqliteActivityStore } from "./activity";
import { sqliteAnalyticsStore, sqliteBudgetAlertStore, sqliteRefusalStore } from "./analytics";
import { sqliteAuditStore } from "./audit";
import { sqliteAuthCodeStore } from "./auth-codes";
import { sqliteBudgetStore } from "./budgets";
import { sqliteByokStore } from "./byok";
import { type Db, openDatabase, runAtOnce, SqliteWriter, type WriteStep } from "./client";
import { sqliteDestinationStore } from "./destinations";
import { sqliteGenerationContentStore, sqliteObservationOutboxStore } from "./generation-outbox";
import { sqliteGenerationStore } from "./generations";
import { sqliteGuardrailStore } from "./guardrails";
import { sqliteUserIdentityStore } from "./identities";
import { sqliteJobStore } from "./jobs";
import { sqliteKeyUsageStore } from "./key-usage";
import { sqliteKeyStore } from "./keys";
import { sqliteMemberStore } from "./members";
import { pendingMigrations, runMigrations } from "./migrate";
import { sqlitePresetStore } from "./presets";
import { ReservationBook } from "./reservation-book";
import { sqliteReservationStore } from "./reservations";
import { sqliteResponseCacheStore } from "./response-cache";
import { sqliteResponseStateStore } from "./responses";
import { meta } from "./schema";
import { sqliteScimTokenStore, sqliteScimUserStore } from "./scim";
import { sqliteScimGroupStore, sqliteScimMappingStore } from "./scim-groups";
import { sqliteInviteStore, sqlitePasswordStore, sqliteWebSessionStore } from "./sign-in";
import { ThreadWriteLock } from "./thread-write-lock";
import { sqliteUserStore } from "./users";
import { sqliteVideoJobStore } from "./video-jobs";
import { sqliteWebhookSecretStore } from "./webhook-secrets";
import { sqliteWorkspaceStore } from "./workspaces";

function tables(db: Db, sqlite: Database, write: WriteStep, writer: SqliteWriter, book: ReservationBook): StoreTables {
  return {
    meta: {
      get: async (key) => db.select().from(meta).where(eq(meta.key, key)).get()?.value,
      set: (key, value) => write(() => void db.insert(meta).values({ key, value }).onConflictDoUpdate({ target: meta.key, set: { value } }).run()),
    },
    users: sqliteUserStore(db, write),
    workspaces: sqliteWorkspaceStore(db, write, writer),
    keys: sqliteKeyStore(db, write, writer),
    usage: sqliteKeyUsageStore(db, sqlite, write),
    generations: sqliteGenerationStore(db, sqlite, write, writer, book),
    reservations: sqliteReservationStore(sqlite, write, writer, book),
    presets: sqlitePresetStore(db, write, writer),
    members: sqliteMemberStore(db, write, writer),
    byok: sqliteByokStore(db, write, writer),
    responses: sqliteResponseStateStore(db, write, writer),
    budgets: sqliteBudgetStore(db, write, book),
    activity: sqliteActivityStore(db),
    jobs: sqliteJobStore(sqlite, write, writer),
    webhookSecrets: sqliteWebhookSecretStore(db, write),
    videoJobs: sqliteVideoJobStore(db, write),
    guardrails: sqliteGuardrailStore(db, write, writer, book),
    destinations: sqliteDestinationStore(db, write),
    passwords: sqlitePasswordStore(db, write),
    sessions: sqliteWebSessionStore(db, write),
    invites: sqliteInviteStore(db, write),
    authCodes: sqliteAuthCodeStore(db, write),
    generationContents: sqliteGenerationContentStore(db, write),
    observationOutbox: sqliteObservationOutboxStore(sqlite, write),
    responseCache: sqliteResponseCacheStore(sqlite, write),
    audit: sqliteAuditStore(db, write),
    identities: sqliteUserIdentityStore(db, write),
    scimTokens: sqliteScimTokenStore(db, write),
    scimUsers: sqliteScimUserStore(db, write),
    scimGroups: sqliteScimGroupStore(db, write),
    scimMappings: sqliteScimMappingStore(db, write),
    analytics: sqliteAnalyticsStore(db),
    refusals: sqliteRefusalStore(db, sqlite, write, writer),
    budgetAlerts: sqliteBudgetAlertStore(db, write),
  };
}

/**
 * The embedded default: one SQLite file (WAL) owned by this process. `writeLock`: the buffer of
 * the process's ThreadWriteLock for this file, when another thread made it (`Store.writeLock`).
 */
export function createSqliteStore(path: string, opts: { migrate?: boolean; writeLock?: SharedArrayBuffer } = {}): Store {
  const { sqlite, db } = openDatabase(path);
  if (opts.migrate !== false) runMigrations(sqlite);
  const lock = new ThreadWriteLock(opts.writeLock);
  const writer = new SqliteWriter(sqlite, lock);
  const book = new ReservationBook();
  const checkpoint = sqlite.query<{ busy: number; log: number; checkpointed: number }, []>("PRAGMA wal_checkpoint(PASSIVE)");
  // the transaction's view shares the connection and the reservation book and only skips the
  // wait for the writer (it is the writer); made at the first transaction, since preparing its
  // statements is a third of opening the store and only management operations use it
  const outside = tables(db, sqlite, writer.step, writer, book);
  let inside: StoreTables | undefined;
  return {
    dialect: "sqlite",
    ...outside,
    transaction: (fn) => writer.transaction(() => fn((inside ??= tables(db, sqlite, runAtOnce, writer, book)))),
    async ready() {
      try {
        return pendingMigrations(sqlite).length === 0;
      } catch {
        return false;
      }
    },
    writeLock: lock.buffer,
    deferCheckpoints: () => sqlite.exec(`PRAGMA wal_autocheckpoint = ${WAL_CHECKPOINT_BACKSTOP_PAGES}`),
    checkpoint: async () => {
      const row = checkpoint.get();
      return { frames: row?.log ?? 0, copied: row?.checkpointed ?? 0 };
    },
    close: async () => sqlite.close(),
  };
}

/**
 * What a connection that defers its checkpoints still copies back on its own: ten times SQLite's
 * default, a bound on the WAL (about 40 MB) should the connection running them stall.
 */
export const WAL_CHECKPOINT_BACKSTOP_PAGES = 10_000;

export { openDatabase, runMigrations };
