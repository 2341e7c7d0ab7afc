/**
 * What a SCIM client provisions beyond users (RFC 7643, section 4.2: Groups and their members) and
 * OpenRouter's group mappings: a group's members become members of a workspace with a role; the
 * memberships a mapping made are marked, so that they leave with the group and others are never touched.
 */

export type ScimGroupRecord = { id: string; displayName: string; externalId: string | null; createdAt: number; updatedAt: number };

export interface ScimGroupStore {
  create(group: ScimGroupRecord): Promise<ScimGroupRecord>;
  get(id: string): Promise<ScimGroupRecord | undefined>;
  /** oldest first */
  list(): Promise<ScimGroupRecord[]>;
  update(id: string, patch: Pick<ScimGroupRecord, "displayName" | "externalId" | "updatedAt">): Promise<ScimGroupRecord | undefined>;
  /** the group and its members */
  delete(id: string): Promise<ScimGroupRecord | undefined>;
  /** the user ids of a group's members, sorted */
  members(groupId: string): Promise<string[]>;
  /** adds the users a group does not hold yet; returns those added */
  addMembers(groupId: string, userIds: readonly string[]): Promise<string[]>;
  /** returns those removed */
  removeMembers(groupId: string, userIds: readonly string[]): Promise<string[]>;
  /** the groups a user is a member of, oldest first */
  groupsOf(userId: string): Promise<ScimGroupRecord[]>;
  /** a deleted user leaves every group */
  removeUser(userId: string): Promise<number>;
}

export type ScimGroupMappingRecord = {
  id: string;
  groupId: string;
  workspaceId: string;
  role: "admin" | "member";
  createdAt: number;
  updatedAt: number;
};

export type ScimSyncJobRecord = {
  id: string;
  status: "queued" | "running" | "succeeded" | "failed";
  syncedGroups: number | null;
  deletedGroups: number | null;
  errorMessage: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
};

export interface ScimMappingStore {
  /** throws on a second mapping of the same group to the same workspace (unique index) */
  create(mapping: ScimGroupMappingRecord): Promise<ScimGroupMappingRecord>;
  get(id: string): Promise<ScimGroupMappingRecord | undefined>;
  find(groupId: string, workspaceId: string): Promise<ScimGroupMappingRecord | undefined>;
  /** oldest first */
  list(): Promise<ScimGroupMappingRecord[]>;
  update(id: string, patch: Pick<ScimGroupMappingRecord, "role" | "updatedAt">): Promise<ScimGroupMappingRecord | undefined>;
  delete(id: string): Promise<ScimGroupMappingRecord | undefined>;
  /** the workspaces where a mapping made the user's membership */
  managedWorkspacesOf(userId: string): Promise<string[]>;
  markManaged(workspaceId: string, userId: string): Promise<void>;
  unmarkManaged(workspaceId: string, userId: string): Promise<void>;
  createJob(job: ScimSyncJobRecord): Promise<ScimSyncJobRecord>;
  getJob(id: string): Promise<ScimSyncJobRecord | undefined>;
  updateJob(id: string, patch: Partial<Omit<ScimSyncJobRecord, "id" | "createdAt">>): Promise<void>;
}
