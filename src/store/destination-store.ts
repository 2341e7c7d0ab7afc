/**
 * Observability destinations of a workspace, as stored: the config split in two, what the API
 * shows (secret values masked) and the secret values sealed under the master key. The store
 * neither seals nor masks; src/observability/destination-config.ts does both.
 */

export type DestinationRecord = {
  id: string;
  workspaceId: string;
  /** one of src/observability/contract.ts DESTINATION_TYPES */
  type: string;
  name: string;
  enabled: boolean;
  privacyMode: boolean;
  /** 0.0001..1 */
  samplingRate: number;
  regions: string[];
  /** null: every key of the workspace */
  apiKeyHashes: string[] | null;
  /** the filter rules object as saved (validated), or null */
  filterRules: Record<string, unknown> | null;
  broadcastGenerationCost: boolean;
  broadcastGenerationIdentity: boolean;
  broadcastGenerationRequestContext: boolean;
  /** the config as the API shows it: secret values masked, defaults applied */
  config: Record<string, unknown>;
  /** the secret config values by key, each sealed (base64 of iv | ciphertext | tag); `{}` once deleted */
  sealedConfig: Record<string, string>;
  createdAt: number;
  updatedAt: number;
};

export type DestinationPatch = Partial<
  Pick<
    DestinationRecord,
    | "name"
    | "enabled"
    | "privacyMode"
    | "samplingRate"
    | "regions"
    | "apiKeyHashes"
    | "filterRules"
    | "broadcastGenerationCost"
    | "broadcastGenerationIdentity"
    | "broadcastGenerationRequestContext"
    | "config"
    | "sealedConfig"
  >
>;

export interface DestinationStore {
  create(record: DestinationRecord): Promise<DestinationRecord>;
  /** a live (not deleted) destination */
  get(id: string): Promise<DestinationRecord | undefined>;
  /** the workspace's live destinations, oldest first */
  list(workspaceId: string, offset: number, limit: number): Promise<DestinationRecord[]>;
  count(workspaceId: string): Promise<number>;
  /** live destinations of one type in the workspace (the per-type limit) */
  countOfType(workspaceId: string, type: string): Promise<number>;
  update(id: string, patch: DestinationPatch, now: number): Promise<DestinationRecord | undefined>;
  /** soft delete: the row stays, disabled, with its sealed secrets wiped */
  delete(id: string, now: number): Promise<boolean>;
  /** the workspace's live, enabled destinations, oldest first: what every generation of the workspace is offered to */
  enabledIn(workspaceId: string): Promise<DestinationRecord[]>;
}
