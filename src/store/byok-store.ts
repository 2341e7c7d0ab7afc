/** BYOK provider credentials, sealed. */

export type ByokRecord = {
  id: string;
  /** null: applies to every workspace */
  workspaceId: string | null;
  provider: string;
  name: string | null;
  label: string;
  /** base64 of iv | ciphertext | tag; "" once deleted */
  encryptedKey: string;
  disabled: boolean;
  isFallback: boolean;
  isRequired: boolean;
  isByokOnly: boolean;
  declaredZdr: boolean | null;
  allowedModels: string[] | null;
  allowedUserIds: string[] | null;
  allowedApiKeyHashes: string[] | null;
  sortOrder: number;
  createdAt: number;
  updatedAt: number | null;
};

export type ByokPatch = Partial<
  Pick<
    ByokRecord,
    | "name"
    | "label"
    | "encryptedKey"
    | "disabled"
    | "isFallback"
    | "isRequired"
    | "isByokOnly"
    | "declaredZdr"
    | "allowedModels"
    | "allowedUserIds"
    | "allowedApiKeyHashes"
  >
>;

export type ByokFilter = { workspaceId?: string; provider?: string };

export interface ByokStore {
  /** stores the credential with sort_order = last of its workspace and provider + 1 */
  create(cred: Omit<ByokRecord, "sortOrder">): Promise<ByokRecord>;
  get(id: string): Promise<ByokRecord | undefined>;
  /** by workspace, provider, sort_order */
  list(filter: ByokFilter, offset: number, limit: number): Promise<ByokRecord[]>;
  count(filter: ByokFilter): Promise<number>;
  update(id: string, patch: ByokPatch, now: number): Promise<ByokRecord | undefined>;
  /** soft delete; the key material is wiped */
  delete(id: string, now: number): Promise<boolean>;
  /** enabled credentials a request of the workspace may use (its own and global ones), by sort_order */
  usable(workspaceId: string): Promise<ByokRecord[]>;
}
