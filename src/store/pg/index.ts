import type { Store, StoreTables } from "../store";
import { pgActivityStore } from "./activity";
import { pgAnalyticsStore, pgBudgetAlertStore, pgRefusalStore } from "./analytics";
import { pgAuditStore } from "./audit";
import { pgAuthCodeStore } from "./auth-codes";
import { pgBudgetStore } from "./budgets";
import { pgByokStore } from "./byok";
import { type Conn, lockedTransaction, openPool } from "./client";
import { pgDestinationStore } from "./destinations";
import { pgGenerationContentStore, pgObservationOutboxStore } from "./generation-outbox";
import { pgGenerationStore } from "./generations";
import { pgGuardrailStore } from "./guardrails";
import { pgUserIdentityStore } from "./identities";
import { pgJobStore } from "./jobs";
import { pgKeyUsageStore } from "./key-usage";
import { pgKeyStore } from "./keys";
import { pgMemberStore } from "./members";
import { pgMetaStore } from "./meta";
import { pendingPgMigrations, runPgMigrations } from "./migrate";
import { pgPresetStore } from "./presets";
import { pgReservationStore } from "./reservations";
import { pgResponseCacheStore } from "./response-cache";
import { pgResponseStateStore } from "./responses";
import { pgScimTokenStore, pgScimUserStore } from "./scim";
import { pgScimGroupStore, pgScimMappingStore } from "./scim-groups";
import { pgInviteStore, pgPasswordStore, pgWebSessionStore } from "./sign-in";
import { pgUserStore } from "./users";
import { pgVideoJobStore } from "./video-jobs";
import { pgWebhookSecretStore } from "./webhook-secrets";
import { pgWorkspaceStore } from "./workspaces";

/** ready() gives up after this long (an unreachable server would otherwise hold it for the connection timeout) */
const READY_TIMEOUT_MS = 5_000;

function tables(conn: Conn): StoreTables {
  return {
    meta: pgMetaStore(conn),
    users: pgUserStore(conn),
    workspaces: pgWorkspaceStore(conn),
    keys: pgKeyStore(conn),
    usage: pgKeyUsageStore(conn),
    generations: pgGenerationStore(conn),
    reservations: pgReservationStore(conn),
    presets: pgPresetStore(conn),
    members: pgMemberStore(conn),
    byok: pgByokStore(conn),
    responses: pgResponseStateStore(conn),
    budgets: pgBudgetStore(conn),
    activity: pgActivityStore(conn),
    jobs: pgJobStore(conn),
    webhookSecrets: pgWebhookSecretStore(conn),
    videoJobs: pgVideoJobStore(conn),
    guardrails: pgGuardrailStore(conn),
    destinations: pgDestinationStore(conn),
    passwords: pgPasswordStore(conn),
    sessions: pgWebSessionStore(conn),
    invites: pgInviteStore(conn),
    authCodes: pgAuthCodeStore(conn),
    generationContents: pgGenerationContentStore(conn),
    observationOutbox: pgObservationOutboxStore(conn),
    responseCache: pgResponseCacheStore(conn),
    audit: pgAuditStore(conn),
    identities: pgUserIdentityStore(conn),
    scimTokens: pgScimTokenStore(conn),
    scimUsers: pgScimUserStore(conn),
    scimGroups: pgScimGroupStore(conn),
    scimMappings: pgScimMappingStore(conn),
    analytics: pgAnalyticsStore(conn),
    refusals: pgRefusalStore(conn),
    budgetAlerts: pgBudgetAlertStore(conn),
  };
}

/**
 * The PostgreSQL store: a pool of `poolSize` connections (default 10) to `url`, migrated first
 * unless `migrate` is false. Several instances may share one database: `transaction()` and the
 * reservation statements are atomic across all of them. No read cache: callers wrap one around it.
 */
export async function createPgStore(url: string, opts: { poolSize?: number; migrate?: boolean } = {}): Promise<Store> {
  const { client, db } = openPool(url, opts.poolSize ?? 10);
  if (opts.migrate !== false) {
    try {
      await runPgMigrations(client);
    } catch (err) {
      await client.close({ timeout: 0 });
      throw err;
    }
  }
  const root: Conn = { db, inTransaction: false };
  return {
    dialect: "postgres",
    ...tables(root),
    transaction: (fn) => lockedTransaction(root, (tx) => fn(tables({ db: tx, inTransaction: true }))),
    async ready() {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS)));
      const check = pendingPgMigrations(client).then(
        (pending) => pending.length === 0,
        () => false,
      );
      try {
        return await Promise.race([check, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => client.close(),
  };
}

/** `gateway migrate`: applies the pending migrations on one connection and names them. */
export async function migratePg(url: string): Promise<string[]> {
  const { client } = openPool(url, 1);
  try {
    return await runPgMigrations(client);
  } finally {
    await client.close();
  }
}

export { pendingPgMigrations, runPgMigrations };
