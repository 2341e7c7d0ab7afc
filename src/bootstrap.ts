import { systemOrigin } from "./audit/origin";
import { hashKey } from "./crypto/key-secret";
import { insertKey, recordKeyChange } from "./modules/keys/service";
import { recordUserChange } from "./modules/organization/service";
import { recordWorkspaceChange } from "./modules/workspaces/service";
import { NO_RATE_LIMIT, type Store } from "./store/store";

export const OWNER_USER_ID = "owner";

export type BootstrapResult = {
  /** raw management key created on first start; shown once, never stored */
  createdManagementKey?: string;
  adminKeyCreated: boolean;
};

/**
 * First start on an empty database: the owner, the default workspace and a management key.
 * With GATEWAY_ADMIN_KEY, a management key with exactly that secret exists afterwards (idempotent).
 */
export function bootstrap(store: Store, opts: { adminKey?: string; now: number }): Promise<BootstrapResult> {
  // one transaction, serialised across instances: two starting at once create one owner
  const origin = systemOrigin("first start");
  return store.transaction(async (tx) => {
    const result: BootstrapResult = { adminKeyCreated: false };
    const fresh = (await tx.users.count()) === 0;
    if (fresh) {
      const owner = await tx.users.create({ id: OWNER_USER_ID, email: null, name: "Owner", role: "owner", createdAt: opts.now });
      await recordUserChange(tx, opts.now, origin, null, owner);
      await tx.meta.set("organization_id", `org_${crypto.randomUUID()}`);
    }
    let workspace = await tx.workspaces.getDefault();
    if (!workspace) {
      workspace = await tx.workspaces.create({
        id: crypto.randomUUID(),
        name: "Default",
        // a workspace made later may have taken the slug after the original default was deleted
        slug: (await tx.workspaces.find("default")) ? `default-${crypto.randomUUID().slice(0, 8)}` : "default",
        description: null,
        isDefault: true,
        defaultTextModel: null,
        defaultImageModel: null,
        defaultProviderSort: null,
        rateLimit: NO_RATE_LIMIT,
        settings: {},
        webhookUrl: null,
        createdBy: OWNER_USER_ID,
        createdAt: opts.now,
        updatedAt: null,
      });
      await recordWorkspaceChange(tx, opts.now, origin, "workspace.create", null, workspace);
    }
    if (opts.adminKey) {
      const hash = hashKey(opts.adminKey);
      const existing = await tx.keys.get(hash);
      const orphaned = existing !== undefined && (await tx.workspaces.find(existing.workspaceId)) === undefined;
      if (!existing || orphaned || !existing.isManagement || existing.disabled || existing.expiresAt !== null) {
        if (await tx.keys.reviveAsManagement(hash, opts.now, workspace.id)) {
          const revived = await tx.keys.get(hash);
          if (existing && revived) await recordKeyChange(tx, opts.now, origin, "key.update", existing, revived);
        } else {
          const { record } = await insertKey(tx, opts.now, {
            name: "Admin key (GATEWAY_ADMIN_KEY)",
            isManagement: true,
            workspaceId: workspace.id,
            creatorUserId: OWNER_USER_ID,
            raw: opts.adminKey,
          });
          await recordKeyChange(tx, opts.now, origin, "key.create", null, record);
          result.adminKeyCreated = true;
        }
      }
    } else if (fresh) {
      const { raw, record } = await insertKey(tx, opts.now, {
        name: "Initial management key",
        isManagement: true,
        workspaceId: workspace.id,
        creatorUserId: OWNER_USER_ID,
      });
      await recordKeyChange(tx, opts.now, origin, "key.create", null, record);
      result.createdManagementKey = raw;
    }
    return result;
  });
}
