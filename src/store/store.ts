/**
 * Storage interfaces. Callers depend on these only; `sqlite/` (bun:sqlite, the embedded default)
 * and `pg/` (PostgreSQL through Bun.sql) implement them and pass one contract suite
 * (test/store/contract.ts). Both build their tables from one description (`tables/`) and their
 * queries from one set of conditions and orders (`queries/`); a dialect folder keeps how its
 * database runs them and what only it does. Every method is asynchronous. The store keeps values and applies no
 * policy: billing decides windows and amounts and hands them over as plain values.
 * Times are epoch milliseconds, money integer nano-dollars.
 */

import type { ApiKeyStore, MetaStore, UserStore, WebhookSecretStore, WorkspaceMemberStore, WorkspaceStore } from "./account-store";
import type { AnalyticsStore, BudgetAlertStore, RefusalStore } from "./analytics-store";
import type { AuditStore } from "./audit-store";
import type { ByokStore } from "./byok-store";
import type { DestinationStore } from "./destination-store";
import type { GenerationContentStore } from "./generation-content-store";
import type { GuardrailStore } from "./guardrail-store";
import type { ScimTokenStore, ScimUserStore, UserIdentityStore } from "./identity-store";
import type { JobStore } from "./job-store";
import type { ActivityStore, GenerationStore, KeyUsageStore, ReservationStore, WorkspaceBudgetStore } from "./money-store";
import type { ObservationOutboxStore } from "./observation-outbox-store";
import type { PresetStore } from "./preset-store";
import type { ResponseCacheStore } from "./response-cache-store";
import type { ResponseStateStore } from "./response-store";
import type { ScimGroupStore, ScimMappingStore } from "./scim-group-store";
import type { AuthCodeStore, InviteStore, PasswordStore, WebSessionStore } from "./sign-in-store";
import type { VideoJobStore } from "./video-job-store";

export * from "./account-store";
export * from "./analytics-store";
export * from "./audit-store";
export * from "./byok-store";
export * from "./destination-store";
export * from "./generation-content-store";
export * from "./guardrail-store";
export * from "./identity-store";
export * from "./money-store";
export * from "./observation-outbox-store";
export * from "./preset-store";
export * from "./response-cache-store";
export * from "./response-store";
export * from "./scim-group-store";
export * from "./sign-in-store";

/** The stores one transaction sees. */
export type StoreTables = {
  meta: MetaStore;
  users: UserStore;
  workspaces: WorkspaceStore;
  keys: ApiKeyStore;
  usage: KeyUsageStore;
  generations: GenerationStore;
  reservations: ReservationStore;
  presets: PresetStore;
  members: WorkspaceMemberStore;
  byok: ByokStore;
  responses: ResponseStateStore;
  budgets: WorkspaceBudgetStore;
  activity: ActivityStore;
  /** the outbox: enqueue inside `transaction` to store a job with the change that causes it */
  jobs: JobStore;
  webhookSecrets: WebhookSecretStore;
  videoJobs: VideoJobStore;
  /** guardrails and their key and member assignments (issue 42) */
  guardrails: GuardrailStore;
  /** observability destinations (issue 18) */
  destinations: DestinationStore;
  passwords: PasswordStore;
  sessions: WebSessionStore;
  invites: InviteStore;
  authCodes: AuthCodeStore;
  /** prompts and completions kept by I/O logging */
  generationContents: GenerationContentStore;
  /** generations waiting to be forwarded to observability destinations */
  observationOutbox: ObservationOutboxStore;
  /** answers the response cache keeps */
  responseCache: ResponseCacheStore;
  /** the audit log: append inside the transaction of the change it records (src/audit/record.ts) */
  audit: AuditStore;
  /** OpenID Connect subjects of users */
  identities: UserIdentityStore;
  /** bearer tokens of SCIM clients */
  scimTokens: ScimTokenStore;
  /** the SCIM attributes of provisioned users */
  scimUsers: ScimUserStore;
  /** SCIM Groups and their members */
  scimGroups: ScimGroupStore;
  /** group mappings to workspaces, the memberships they made, and sync jobs */
  scimMappings: ScimMappingStore;
  /** hourly counters of every generation, for the analytics API and the console's charts */
  analytics: AnalyticsStore;
  /** requests refused before a generation began, and their hourly counters */
  refusals: RefusalStore;
  /** budget alerts sent, once per threshold and window */
  budgetAlerts: BudgetAlertStore;
};

export type Dialect = "sqlite" | "postgres";

export interface Store extends StoreTables {
  readonly dialect: Dialect;
  /**
   * Runs fn in one write transaction, serialised with every other `transaction()` of every
   * process on the database (SQLite: BEGIN IMMEDIATE; PostgreSQL: a transaction-scoped advisory
   * lock), so a read-modify-write inside it sees no concurrent writer. Use `tx`, not the outer
   * store, inside fn, and await its calls one at a time (PostgreSQL runs some of them in
   * savepoints). Rolled back when fn throws.
   */
  transaction<T>(fn: (tx: StoreTables) => Promise<T>): Promise<T>;
  /** database reachable and all migrations applied */
  ready(): Promise<boolean>;
  /**
   * SQLite only (WAL): this connection stops copying the WAL back into the database after its
   * own commits (up to a backstop of WAL_CHECKPOINT_BACKSTOP_PAGES), because another connection
   * runs `checkpoint()` on a timer. The serving thread hands checkpoints to its job worker so that
   * no request waits behind the copy and its fsync.
   */
  deferCheckpoints?(): void;
  /**
   * SQLite only: the write lock this connection shares with the other threads of the process
   * (thread-write-lock.ts). A job worker opens the file with it, so that the serving thread waits
   * for the worker's writes without sleeping.
   */
  writeLock?: SharedArrayBuffer;
  /** SQLite only: copies what the WAL holds back into the database without waiting for readers or writers (PASSIVE); the WAL's frames and how many are copied */
  checkpoint?(): Promise<{ frames: number; copied: number }>;
  close(): Promise<void>;
}
