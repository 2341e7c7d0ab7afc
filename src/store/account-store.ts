/** Users, workspaces, their members, API keys and webhook secrets: who may call, and as what. */

export type UserRole = "owner" | "admin" | "member";

/**
 * A key's or a workspace's rate limits; null: no limit of that kind (for a key: the workspace's
 * default applies). Requests and tokens count per fixed UTC minute; concurrency counts requests
 * in flight.
 */
export type RateLimit = { rpm: number | null; tpm: number | null; concurrency: number | null };

export const NO_RATE_LIMIT: RateLimit = { rpm: null, tpm: null, concurrency: null };

/** `disabled`: deactivated (SCIM `active: false`): no sign-in, no session, no key they created authenticates */
export type UserRecord = { id: string; email: string | null; name: string | null; role: UserRole; createdAt: number; disabled: boolean };

/** A user to create: active unless said otherwise. */
export type NewUser = Omit<UserRecord, "disabled"> & { disabled?: boolean };

export type WorkspaceRecord = {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  isDefault: boolean;
  defaultTextModel: string | null;
  defaultImageModel: string | null;
  defaultProviderSort: string | null;
  /** the default of the workspace's keys, limit by limit */
  rateLimit: RateLimit;
  settings: Record<string, unknown>;
  /** the default callback URL of the workspace's webhooks */
  webhookUrl: string | null;
  createdBy: string | null;
  createdAt: number;
  updatedAt: number | null;
};

export type LimitReset = "daily" | "weekly" | "monthly";

export type ApiKeyRecord = {
  hash: string;
  name: string;
  label: string;
  isManagement: boolean;
  disabled: boolean;
  workspaceId: string;
  creatorUserId: string | null;
  externalUser: string | null;
  limitNanos: number | null;
  limitReset: LimitReset | null;
  includeByokInLimit: boolean;
  rateLimit: RateLimit;
  expiresAt: number | null;
  /** fractions of the limit (0 < f <= 1, ascending) whose crossing sends a budget alert; null: none */
  alertThresholds: number[] | null;
  createdAt: number;
  updatedAt: number | null;
};

export type ApiKeyPatch = Partial<
  Pick<ApiKeyRecord, "name" | "disabled" | "limitNanos" | "limitReset" | "includeByokInLimit" | "rateLimit" | "expiresAt" | "alertThresholds">
>;

/**
 * A key rotation: the key keeps everything but its hash, which becomes `newHash` in every table
 * that names the key (its usage, counters, reservations, generations and their content, the lists
 * of destinations and BYOK credentials); the old secret keeps authenticating as the key until
 * `previousValidUntil` (null: not at all).
 */
export type KeyRotation = { hash: string; newHash: string; label: string; previousValidUntil: number | null; now: number };

export interface MetaStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
}

export interface UserStore {
  create(user: NewUser): Promise<UserRecord>;
  get(id: string): Promise<UserRecord | undefined>;
  list(offset: number, limit: number): Promise<UserRecord[]>;
  count(): Promise<number>;
  /** users whose email matches case-insensitively, oldest first */
  findByEmail(email: string): Promise<UserRecord[]>;
  update(id: string, patch: UserPatch): Promise<UserRecord | undefined>;
  delete(id: string): Promise<boolean>;
}

export type UserPatch = Partial<Pick<UserRecord, "email" | "name" | "role" | "disabled">>;

export interface WorkspaceStore {
  create(ws: WorkspaceRecord): Promise<WorkspaceRecord>;
  /** by UUID or slug */
  find(ref: string): Promise<WorkspaceRecord | undefined>;
  getDefault(): Promise<WorkspaceRecord | undefined>;
  list(offset: number, limit: number): Promise<WorkspaceRecord[]>;
  count(): Promise<number>;
  update(id: string, patch: WorkspacePatch, now: number): Promise<WorkspaceRecord | undefined>;
  /** removes the workspace, its memberships and webhook secret; its BYOK credentials are soft-deleted and wiped */
  delete(id: string, now: number): Promise<boolean>;
  /** keys of the workspace that still authenticate (live, enabled, not expired at `now`) */
  countActiveKeys(id: string, now: number): Promise<number>;
  /** which of `userIds` created keys of the workspace that still authenticate */
  usersWithActiveKeys(id: string, userIds: string[], now: number): Promise<string[]>;
}

export type WorkspacePatch = Partial<
  Pick<
    WorkspaceRecord,
    "name" | "slug" | "description" | "defaultTextModel" | "defaultImageModel" | "defaultProviderSort" | "rateLimit" | "settings" | "webhookUrl"
  >
>;

/** A workspace's webhook signing secrets, sealed; `previous*` only after a rotation. */
export type WebhookSecretRecord = {
  workspaceId: string;
  sealedSecret: string;
  sealedPreviousSecret: string | null;
  previousValidUntil: number | null;
  rotatedAt: number;
};

export interface WebhookSecretStore {
  get(workspaceId: string): Promise<WebhookSecretRecord | undefined>;
  /** creates or replaces the workspace's row */
  put(record: WebhookSecretRecord): Promise<WebhookSecretRecord>;
}

export interface ApiKeyStore {
  create(key: ApiKeyRecord): Promise<ApiKeyRecord>;
  get(hash: string): Promise<ApiKeyRecord | undefined>;
  list(opts: { workspaceId: string; includeDisabled: boolean; offset: number; limit: number }): Promise<ApiKeyRecord[]>;
  update(hash: string, patch: ApiKeyPatch, now: number): Promise<ApiKeyRecord | undefined>;
  /** soft delete: the key stops authenticating and disappears from lists */
  delete(hash: string, now: number): Promise<boolean>;
  countManagement(): Promise<number>;
  /** live keys (disabled ones included) the user created, in every workspace */
  listByCreator(userId: string): Promise<ApiKeyRecord[]>;
  /** soft-deletes every live key the user created; how many */
  deleteByCreator(userId: string, now: number): Promise<number>;
  /** makes a stored key (even a deleted or disabled one) a live management key of `workspaceId` again */
  reviveAsManagement(hash: string, now: number, workspaceId: string): Promise<boolean>;
  /** gives the live key `rotation.hash` its new hash everywhere, in one step; the key as it is now, or undefined when there is none */
  rotate(rotation: KeyRotation): Promise<ApiKeyRecord | undefined>;
  /** the key a previous secret's hash still authenticates as, and until when; undefined when none (expired ones included) */
  previous(hash: string): Promise<{ keyHash: string; validUntil: number } | undefined>;
}

export type WorkspaceMemberRecord = { id: string; workspaceId: string; userId: string; role: "admin" | "member"; createdAt: number };

export interface WorkspaceMemberStore {
  list(workspaceId: string, offset: number, limit: number): Promise<WorkspaceMemberRecord[]>;
  count(workspaceId: string): Promise<number>;
  get(workspaceId: string, userId: string): Promise<WorkspaceMemberRecord | undefined>;
  /** every membership of one user, oldest first */
  ofUser(userId: string): Promise<WorkspaceMemberRecord[]>;
  /** inserts or updates (role) each membership; returns them as stored */
  upsert(members: WorkspaceMemberRecord[]): Promise<WorkspaceMemberRecord[]>;
  /** how many of the users were members */
  remove(workspaceId: string, userIds: string[]): Promise<number>;
  /** the user's memberships in every workspace */
  removeUser(userId: string): Promise<number>;
}
