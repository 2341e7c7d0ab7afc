/** Guardrails and their assignments to keys and members. Money is integer nano-dollars, times epoch milliseconds. */

import type { WorkspaceUsageRow } from "./money-store";

export type GuardrailInterval = "daily" | "weekly" | "monthly";

/** The policy fields of a guardrail, in the API's names, kept as one JSON document (null or absent: not set). */
export type GuardrailRules = Record<string, unknown>;

export type GuardrailRecord = {
  id: string;
  workspaceId: string;
  name: string;
  description: string | null;
  rules: GuardrailRules;
  limitNanos: number | null;
  resetInterval: GuardrailInterval | null;
  includeByokInBudgets: boolean;
  createdAt: number;
  updatedAt: number | null;
};

export type GuardrailPatch = Partial<Pick<GuardrailRecord, "name" | "description" | "rules" | "limitNanos" | "resetInterval" | "includeByokInBudgets">>;

/** A key's assignment, with the key's name and label for the listing (OpenRouter's KeyAssignment). */
export type KeyAssignmentRecord = {
  id: string;
  guardrailId: string;
  keyHash: string;
  keyName: string;
  keyLabel: string;
  assignedBy: string | null;
  createdAt: number;
};

export type MemberAssignmentRecord = { id: string; guardrailId: string; workspaceId: string; userId: string; assignedBy: string | null; createdAt: number };

export type NewAssignment = { id: string; assignedBy: string | null; createdAt: number };

/** Where a guardrail applying to a request comes from. */
export type GuardrailScope = "workspace" | "member" | "key";

export type ApplyingGuardrail = { scope: GuardrailScope; guardrail: GuardrailRecord };

export interface GuardrailStore {
  /** a workspace's guardrails in creation order */
  list(workspaceId: string, offset: number, limit: number): Promise<GuardrailRecord[]>;
  count(workspaceId: string): Promise<number>;
  get(id: string): Promise<GuardrailRecord | undefined>;
  create(guardrail: GuardrailRecord): Promise<GuardrailRecord>;
  update(id: string, patch: GuardrailPatch, now: number): Promise<GuardrailRecord | undefined>;
  /** removes the guardrail and its key and member assignments */
  delete(id: string): Promise<boolean>;
  /**
   * Assigns each key to the guardrail, moving it from any other; a key already assigned to it
   * keeps its row. Returns how many keys were assigned anew (or moved).
   */
  assignKeys(guardrailId: string, keyHashes: readonly string[], row: (keyHash: string) => NewAssignment): Promise<number>;
  /** how many of the keys were assigned to this guardrail */
  unassignKeys(guardrailId: string, keyHashes: readonly string[]): Promise<number>;
  /** one guardrail's key assignments (or every guardrail's, without an id), oldest first */
  keyAssignments(guardrailId: string | null, offset: number, limit: number): Promise<KeyAssignmentRecord[]>;
  countKeyAssignments(guardrailId: string | null): Promise<number>;
  /** the same for members of the guardrail's workspace: one guardrail per member and workspace */
  assignMembers(guardrail: Pick<GuardrailRecord, "id" | "workspaceId">, userIds: readonly string[], row: (userId: string) => NewAssignment): Promise<number>;
  unassignMembers(guardrailId: string, userIds: readonly string[]): Promise<number>;
  memberAssignments(guardrailId: string | null, offset: number, limit: number): Promise<MemberAssignmentRecord[]>;
  countMemberAssignments(guardrailId: string | null): Promise<number>;
  /**
   * The guardrails that apply to a request of this key: its workspace's default (`defaultId`, when
   * stored), the one assigned to its creator in its workspace, the one assigned to the key.
   */
  applying(defaultId: string, key: { hash: string; workspaceId: string; creatorUserId: string | null }): Promise<ApplyingGuardrail[]>;
  /** a member's spend counters in a workspace (the keys the user created there), measured like a workspace's */
  memberUsage(workspaceId: string, userId: string): Promise<WorkspaceUsageRow | undefined>;
  /** the member shares of open reservations, in nano-dollars */
  memberHeld(workspaceId: string, userId: string): Promise<number>;
}
