import { eq } from "drizzle-orm";
import type { WebhookSecretStore } from "../store";
import type { Conn } from "./client";
import { workspaceWebhookSecrets } from "./schema";

export function pgWebhookSecretStore({ db }: Conn): WebhookSecretStore {
  return {
    async get(workspaceId) {
      const [row] = await db.select().from(workspaceWebhookSecrets).where(eq(workspaceWebhookSecrets.workspaceId, workspaceId));
      return row;
    },
    async put(record) {
      const { workspaceId: _id, ...values } = record;
      await db.insert(workspaceWebhookSecrets).values(record).onConflictDoUpdate({ target: workspaceWebhookSecrets.workspaceId, set: values });
      return record;
    },
  };
}
