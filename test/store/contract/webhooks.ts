/** Contract: a workspace's webhook URL and its sealed webhook signing secrets. */
import { describe, expect, test } from "bun:test";
import type { Store, WebhookSecretRecord } from "../../../src/store/store";
import { workspace } from "./fixtures";

const secret = (workspaceId: string, extra: Partial<WebhookSecretRecord> = {}): WebhookSecretRecord => ({
  workspaceId,
  sealedSecret: `sealed-${workspaceId}`,
  sealedPreviousSecret: null,
  previousValidUntil: null,
  rotatedAt: 1_000,
  ...extra,
});

export function webhooksContract(store: () => Store): void {
  describe("webhooks", () => {
    test("a workspace's webhook_url is stored, patched and cleared", async () => {
      const s = store();
      await s.workspaces.create(workspace("w1", 1000, { webhookUrl: "https://hooks.example.com/a?x=1" }));
      expect((await s.workspaces.find("w1"))?.webhookUrl).toBe("https://hooks.example.com/a?x=1");
      expect((await s.workspaces.update("w1", { webhookUrl: "https://hooks.example.com/b" }, 2000))?.webhookUrl).toBe("https://hooks.example.com/b");
      expect((await s.workspaces.update("w1", { name: "renamed" }, 3000))?.webhookUrl).toBe("https://hooks.example.com/b");
      expect((await s.workspaces.update("w1", { webhookUrl: null }, 4000))?.webhookUrl).toBeNull();
    });

    test("put creates, then replaces, the workspace's one row; get reads it back exactly", async () => {
      const s = store();
      expect(await s.webhookSecrets.get("w1")).toBeUndefined();
      expect(await s.webhookSecrets.put(secret("w1"))).toEqual(secret("w1"));
      await s.webhookSecrets.put(secret("w2", { sealedSecret: "other" }));
      expect(await s.webhookSecrets.get("w1")).toEqual(secret("w1"));
      const rotated = secret("w1", { sealedSecret: "new", sealedPreviousSecret: "sealed-w1", previousValidUntil: 86_402_000, rotatedAt: 2_000 });
      await s.webhookSecrets.put(rotated);
      expect(await s.webhookSecrets.get("w1")).toEqual(rotated);
      expect(await s.webhookSecrets.get("w2")).toEqual(secret("w2", { sealedSecret: "other" }));
    });

    test("a put inside a transaction that fails is rolled back", async () => {
      const s = store();
      await s.webhookSecrets.put(secret("w1"));
      const failed = s.transaction(async (tx) => {
        await tx.webhookSecrets.put(secret("w1", { sealedSecret: "lost" }));
        throw new Error("abort");
      });
      await expect(failed).rejects.toThrow("abort");
      expect(await s.webhookSecrets.get("w1")).toEqual(secret("w1"));
    });

    test("deleting a workspace deletes its secret and no other", async () => {
      const s = store();
      await s.workspaces.create(workspace("w1", 1000));
      await s.workspaces.create(workspace("w2", 1000));
      await s.webhookSecrets.put(secret("w1"));
      await s.webhookSecrets.put(secret("w2"));
      expect(await s.workspaces.delete("w1", 5000)).toBe(true);
      expect(await s.webhookSecrets.get("w1")).toBeUndefined();
      expect(await s.webhookSecrets.get("w2")).toEqual(secret("w2"));
    });
  });
}
