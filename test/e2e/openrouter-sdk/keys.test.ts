import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type SdkHarness, sdk, startSdkHarness } from "./setup";

let h: SdkHarness;
beforeAll(async () => {
  h = await startSdkHarness();
});
afterAll(() => h.close());

describe("apiKeys via @openrouter/sdk", () => {
  test("getCurrentKeyMetadata for an inference key and for the management key", async () => {
    const mine = await h.client.apiKeys.getCurrentKeyMetadata();
    expect(mine.data.label).toBe((await h.admin.apiKeys.get({ hash: h.keyHash })).data.label);
    expect(mine.data.isManagementKey).toBe(false);
    expect(mine.data.isProvisioningKey).toBe(false);
    expect(mine.data.limit).toBeNull();
    expect(mine.data.limitRemaining).toBeNull();
    expect(mine.data.limitReset).toBeNull();
    expect(mine.data.usage).toBe(0);
    expect(mine.data.byokUsage).toBe(0);
    expect(mine.data.includeByokInLimit).toBe(false);
    expect(typeof mine.data.rateLimit.requests).toBe("number");
    expect(Array.isArray(mine.data.allowedDataRegions)).toBe(true);

    const admin = await h.admin.apiKeys.getCurrentKeyMetadata();
    expect(admin.data.isManagementKey).toBe(true);
  });

  test("create returns the raw key once and every field as sent", async () => {
    const expiresAt = new Date(Date.now() + 86_400_000);
    expiresAt.setUTCMilliseconds(0);
    const created = await h.admin.apiKeys.create({
      requestBody: { name: "sdk created", limit: 12.5, limitReset: "monthly", includeByokInLimit: true, expiresAt },
    });
    expect(created.key.length).toBeGreaterThan(20);
    const d = created.data;
    expect(d.name).toBe("sdk created");
    expect(d.limit).toBe(12.5);
    expect(d.limitRemaining).toBe(12.5);
    expect(d.limitReset).toBe("monthly");
    expect(d.includeByokInLimit).toBe(true);
    expect(d.disabled).toBe(false);
    expect(d.usage).toBe(0);
    expect(d.usageDaily).toBe(0);
    expect(d.usageWeekly).toBe(0);
    expect(d.usageMonthly).toBe(0);
    expect(d.expiresAt?.toISOString()).toBe(expiresAt.toISOString());
    expect(d.updatedAt).toBeNull();
    expect(typeof d.workspaceId).toBe("string");

    // the raw key works with the SDK and describes itself
    const self = await sdk(h.gw, created.key).apiKeys.getCurrentKeyMetadata();
    expect(self.data.limit).toBe(12.5);
    expect(self.data.limitReset).toBe("monthly");
    expect(self.data.label).toBe(d.label);
  });

  test("get, update, list and delete round-trip through the SDK", async () => {
    const { data } = await h.admin.apiKeys.create({ requestBody: { name: "to edit" } });
    const got = await h.admin.apiKeys.get({ hash: data.hash });
    expect(got.data).toEqual(data);

    const updated = await h.admin.apiKeys.update({ hash: data.hash, requestBody: { name: "edited", disabled: true, limit: 3, limitReset: "daily" } });
    expect(updated.data.hash).toBe(data.hash);
    expect(updated.data.name).toBe("edited");
    expect(updated.data.disabled).toBe(true);
    expect(updated.data.limit).toBe(3);
    expect(updated.data.limitReset).toBe("daily");
    expect(typeof updated.data.updatedAt).toBe("string");

    const listed = await h.admin.apiKeys.list({ includeDisabled: true });
    expect(listed.data.find((k) => k.hash === data.hash)?.name).toBe("edited");
    const enabledOnly = await h.admin.apiKeys.list();
    expect(enabledOnly.data.some((k) => k.hash === data.hash)).toBe(false);
    expect(enabledOnly.data.some((k) => k.hash === h.keyHash)).toBe(true);

    const deleted = await h.admin.apiKeys.delete({ hash: data.hash });
    expect(deleted.deleted).toBe(true);
    const after = await h.admin.apiKeys.list({ includeDisabled: true });
    expect(after.data.some((k) => k.hash === data.hash)).toBe(false);
  });

  test("list filters by workspace", async () => {
    const ws = await h.admin.workspaces.create({ createWorkspaceRequest: { name: "Keys WS", slug: "keys-ws" } });
    const { data } = await h.admin.apiKeys.create({ requestBody: { name: "in ws", workspaceId: ws.data.id } });
    expect(data.workspaceId).toBe(ws.data.id);
    const listed = await h.admin.apiKeys.list({ workspaceId: ws.data.id });
    expect(listed.data.map((k) => k.hash)).toEqual([data.hash]);
  });
});
