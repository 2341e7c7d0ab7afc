import { eq } from "drizzle-orm";
import type { WebhookSecretStore } from "../store";
import type { Db, WriteStep } from "./client";
import { workspaceWebhookSecrets } from "./schema";

export function sqliteWebhookSecretStore(db: Db, write: WriteStep): WebhookSecretStore {
  return {
    async get(workspaceId) {
      return db.select().from(workspaceWebhookSecrets).where(eq(workspaceWebhookSecrets.workspaceId, workspaceId)).get();
    },
    put: (record) =>
      write(() => {
        const { workspaceId: _id, ...values } = record;
        db.insert(workspaceWebhookSecrets).values(record).onConflictDoUpdate({ target: workspaceWebhookSecrets.workspaceId, set: values }).run();
        return record;
      }),
  };
}
