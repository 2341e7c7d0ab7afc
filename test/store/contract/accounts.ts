/** Contract: meta, users, workspaces, API keys and workspace members. */
import { describe, expect, test } from "bun:test";
import type { Store, WorkspaceMemberRecord } from "../../../src/store/store";
import { apiKey, credential, NOW, user, workspace } from "./fixtures";

export function accountsContract(store: () => Store): void {
  describe("meta", () => {
    test("get is undefined until set; set overwrites", async () => {
      const s = store();
      expect(await s.meta.get("owner")).toBeUndefined();
      await s.meta.set("owner", "u1");
      await s.meta.set("other", "x");
      expect(await s.meta.get("owner")).toBe("u1");
      await s.meta.set("owner", "u2");
      expect(await s.meta.get("owner")).toBe("u2");
      expect(await s.meta.get("other")).toBe("x");
    });
  });

  describe("users", () => {
    test("create returns the record, get reads it back exactly", async () => {
      const s = store();
      const owner = user("u1", 1000, { role: "owner", email: null, name: null });
      expect(await s.users.create(owner)).toEqual(owner);
      expect(await s.users.get("u1")).toEqual(owner);
      expect(await s.users.get("nope")).toBeUndefined();
    });

    test("list is by creation time then id, paged; count counts all", async () => {
      const s = store();
      for (const u of [user("u-b", 2000), user("u-a", 2000), user("u-c", 1000, { role: "admin" })]) await s.users.create(u);
      expect(await s.users.list(0, 10)).toEqual([user("u-c", 1000, { role: "admin" }), user("u-a", 2000), user("u-b", 2000)]);
      expect((await s.users.list(1, 1)).map((u) => u.id)).toEqual(["u-a"]);
      expect(await s.users.list(3, 10)).toEqual([]);
      expect(await s.users.count()).toBe(3);
    });
  });

  describe("workspaces", () => {
    const settings = { b: 1, a: [1, "é \u2028 \u{1F600}", null], nested: { z: true, y: 0.5 } };

    test("create returns the record; find by id or slug reads it back exactly, settings byte for byte", async () => {
      const s = store();
      const ws = workspace("w1", 1000, {
        description: "d",
        defaultTextModel: "a/b",
        defaultImageModel: "c/d",
        defaultProviderSort: "price",
        settings,
        createdBy: "u1",
      });
      expect(await s.workspaces.create(ws)).toEqual(ws);
      const byId = await s.workspaces.find("w1");
      expect(byId).toEqual(ws);
      expect(JSON.stringify(byId?.settings)).toBe(JSON.stringify(settings));
      expect(await s.workspaces.find("slug-w1")).toEqual(ws);
      expect(await s.workspaces.find("nope")).toBeUndefined();
    });

    test("an id wins over another workspace's slug equal to it", async () => {
      const s = store();
      await s.workspaces.create(workspace("w-id", 1000, { slug: "first" }));
      await s.workspaces.create(workspace("w-other", 2000, { slug: "w-id" }));
      expect((await s.workspaces.find("w-id"))?.id).toBe("w-id");
      expect((await s.workspaces.find("first"))?.id).toBe("w-id");
    });

    test("getDefault, list by creation time then id, paging and count", async () => {
      const s = store();
      expect(await s.workspaces.getDefault()).toBeUndefined();
      await s.workspaces.create(workspace("w-b", 2000));
      await s.workspaces.create(workspace("w-a", 2000));
      await s.workspaces.create(workspace("w-c", 1000, { isDefault: true }));
      expect(await s.workspaces.getDefault()).toEqual(workspace("w-c", 1000, { isDefault: true }));
      expect((await s.workspaces.list(0, 10)).map((w) => w.id)).toEqual(["w-c", "w-a", "w-b"]);
      expect(await s.workspaces.list(1, 1)).toEqual([workspace("w-a", 2000)]);
      expect(await s.workspaces.count()).toBe(3);
    });

    test("update applies the patch and updatedAt, keeps the rest; unknown id is undefined", async () => {
      const s = store();
      await s.workspaces.create(workspace("w1", 1000, { description: "d" }));
      const updated = await s.workspaces.update("w1", { name: "Renamed", settings, defaultTextModel: "x/y" }, 5000);
      const expected = workspace("w1", 1000, { description: "d", name: "Renamed", settings, defaultTextModel: "x/y", updatedAt: 5000 });
      expect(updated).toEqual(expected);
      expect(await s.workspaces.find("w1")).toEqual(expected);
      expect(await s.workspaces.update("w1", { description: null }, 6000)).toEqual({ ...expected, description: null, updatedAt: 6000 });
      expect(await s.workspaces.update("nope", { name: "x" }, 5000)).toBeUndefined();
    });

    test("delete removes the workspace and its memberships and soft-deletes its BYOK credentials only", async () => {
      const s = store();
      await s.workspaces.create(workspace("w1", 1000));
      await s.workspaces.create(workspace("w2", 1000));
      await s.members.upsert([member("w1", "u1"), member("w1", "u2"), member("w2", "u1")]);
      await s.byok.create(credential("c1", "w1", "openai", 1000));
      await s.byok.create(credential("c2", "w2", "openai", 1000));
      await s.byok.create(credential("c3", null, "openai", 1000));
      expect(await s.workspaces.delete("w1", 9000)).toBe(true);
      expect(await s.workspaces.find("w1")).toBeUndefined();
      expect(await s.members.count("w1")).toBe(0);
      expect(await s.members.count("w2")).toBe(1);
      expect(await s.byok.get("c1")).toBeUndefined();
      expect((await s.byok.list({}, 0, 10)).map((c) => c.id)).toEqual(["c3", "c2"]);
      expect(await s.workspaces.count()).toBe(1);
      expect(await s.workspaces.delete("w1", 9000)).toBe(false);
      expect(await s.workspaces.delete("nope", 9000)).toBe(false);
    });

    test("countActiveKeys and usersWithActiveKeys see live, enabled, unexpired keys of the workspace", async () => {
      const s = store();
      const keys = [
        apiKey("k-live", "w1", 1, { creatorUserId: "u1" }),
        apiKey("k-later", "w1", 2, { creatorUserId: "u2", expiresAt: NOW + 1 }),
        apiKey("k-expired", "w1", 3, { creatorUserId: "u3", expiresAt: NOW }),
        apiKey("k-disabled", "w1", 4, { creatorUserId: "u4", disabled: true }),
        apiKey("k-deleted", "w1", 5, { creatorUserId: "u5" }),
        apiKey("k-elsewhere", "w2", 6, { creatorUserId: "u6" }),
      ];
      for (const k of keys) await s.keys.create(k);
      await s.keys.delete("k-deleted", 10);
      expect(await s.workspaces.countActiveKeys("w1", NOW)).toBe(2);
      expect(await s.workspaces.countActiveKeys("w1", NOW + 1)).toBe(1);
      expect(await s.workspaces.countActiveKeys("w3", NOW)).toBe(0);
      expect(await s.workspaces.usersWithActiveKeys("w1", ["u6", "u5", "u4", "u3", "u2", "u1", "u9"], NOW)).toEqual(["u2", "u1"]);
      expect(await s.workspaces.usersWithActiveKeys("w1", [], NOW)).toEqual([]);
    });
  });

  describe("api keys", () => {
    test("create returns the record; get reads it back exactly, large limits included", async () => {
      const s = store();
      const key = apiKey("h1", "w1", 1000, {
        isManagement: true,
        creatorUserId: "u1",
        externalUser: "ext",
        limitNanos: Number.MAX_SAFE_INTEGER,
        limitReset: "weekly",
        includeByokInLimit: true,
        expiresAt: 4_102_444_800_000,
        updatedAt: 1500,
      });
      expect(await s.keys.create(key)).toEqual(key);
      expect(await s.keys.get("h1")).toEqual(key);
      expect(await s.keys.get("nope")).toBeUndefined();
    });

    test("list: one workspace, live keys, disabled on request, by creation time then hash, paged", async () => {
      const s = store();
      for (const k of [
        apiKey("h-b", "w1", 2000),
        apiKey("h-a", "w1", 2000),
        apiKey("h-c", "w1", 1000),
        apiKey("h-off", "w1", 1500, { disabled: true }),
        apiKey("h-gone", "w1", 500),
        apiKey("h-other", "w2", 100),
      ])
        await s.keys.create(k);
      await s.keys.delete("h-gone", 3000);
      const list = (includeDisabled: boolean, offset = 0, limit = 10) => s.keys.list({ workspaceId: "w1", includeDisabled, offset, limit });
      expect((await list(false)).map((k) => k.hash)).toEqual(["h-c", "h-a", "h-b"]);
      expect((await list(true)).map((k) => k.hash)).toEqual(["h-c", "h-off", "h-a", "h-b"]);
      expect(await list(true, 1, 2)).toEqual([apiKey("h-off", "w1", 1500, { disabled: true }), apiKey("h-a", "w1", 2000)]);
    });

    test("update applies the patch and updatedAt; a deleted or unknown key is undefined", async () => {
      const s = store();
      await s.keys.create(apiKey("h1", "w1", 1000));
      const patch = { name: "renamed", disabled: true, limitNanos: 5_000_000_000, limitReset: "daily" as const, includeByokInLimit: true };
      const expected = apiKey("h1", "w1", 1000, { ...patch, updatedAt: 2000 });
      expect(await s.keys.update("h1", patch, 2000)).toEqual(expected);
      expect(await s.keys.get("h1")).toEqual(expected);
      expect(await s.keys.update("h1", { limitNanos: null, limitReset: null }, 3000)).toEqual({
        ...expected,
        limitNanos: null,
        limitReset: null,
        updatedAt: 3000,
      });
      await s.keys.delete("h1", 4000);
      expect(await s.keys.update("h1", { name: "x" }, 5000)).toBeUndefined();
      expect(await s.keys.update("nope", { name: "x" }, 5000)).toBeUndefined();
    });

    test("rate limits of keys and workspaces read back as written, through create and update", async () => {
      const s = store();
      const rateLimit = { rpm: 60, tpm: 2_147_483_647, concurrency: null };
      await s.workspaces.create(workspace("w1", 1000, { rateLimit }));
      expect((await s.workspaces.find("w1"))!.rateLimit).toEqual(rateLimit);
      expect((await s.workspaces.update("w1", { rateLimit: { rpm: null, tpm: null, concurrency: 3 } }, 2000))!.rateLimit).toEqual({
        rpm: null,
        tpm: null,
        concurrency: 3,
      });
      await s.keys.create(apiKey("h1", "w1", 1000, { rateLimit }));
      expect((await s.keys.get("h1"))!.rateLimit).toEqual(rateLimit);
      expect(await s.keys.update("h1", { rateLimit: { rpm: 1, tpm: null, concurrency: 2 } }, 2000)).toEqual(
        apiKey("h1", "w1", 1000, { rateLimit: { rpm: 1, tpm: null, concurrency: 2 }, updatedAt: 2000 }),
      );
      // a patch without rateLimit keeps it
      expect((await s.keys.update("h1", { name: "renamed" }, 3000))!.rateLimit).toEqual({ rpm: 1, tpm: null, concurrency: 2 });
    });

    test("delete is soft: the key stops resolving, once; countManagement counts live management keys", async () => {
      const s = store();
      await s.keys.create(apiKey("m1", "w1", 1, { isManagement: true }));
      await s.keys.create(apiKey("m2", "w1", 2, { isManagement: true, disabled: true }));
      await s.keys.create(apiKey("m3", "w1", 3, { isManagement: true }));
      await s.keys.create(apiKey("k1", "w1", 4));
      expect(await s.keys.countManagement()).toBe(3);
      expect(await s.keys.delete("m3", 10)).toBe(true);
      expect(await s.keys.delete("m3", 11)).toBe(false);
      expect(await s.keys.delete("nope", 11)).toBe(false);
      expect(await s.keys.get("m3")).toBeUndefined();
      expect(await s.keys.countManagement()).toBe(2);
    });

    test("reviveAsManagement makes a deleted key a live management key of the workspace again", async () => {
      const s = store();
      await s.keys.create(apiKey("h1", "w1", 1000, { expiresAt: 2000, disabled: true }));
      await s.keys.delete("h1", 1500);
      expect(await s.keys.reviveAsManagement("h1", 3000, "w2")).toBe(true);
      expect(await s.keys.get("h1")).toEqual(apiKey("h1", "w2", 1000, { isManagement: true, disabled: false, expiresAt: null, updatedAt: 3000 }));
      expect(await s.keys.countManagement()).toBe(1);
      expect(await s.keys.reviveAsManagement("nope", 3000, "w2")).toBe(false);
    });
  });

  describe("workspace members", () => {
    test("upsert stores new memberships and returns them as stored; an existing one only changes role", async () => {
      const s = store();
      const first = [member("w1", "u-b", "admin", 1000, "m1"), member("w1", "u-a", "member", 1000, "m2")];
      expect(await s.members.upsert(first)).toEqual(first);
      const again = await s.members.upsert([member("w1", "u-b", "member", 5000, "m9"), member("w1", "u-c", "member", 500, "m3")]);
      expect(again).toEqual([member("w1", "u-b", "member", 1000, "m1"), member("w1", "u-c", "member", 500, "m3")]);
      expect(await s.members.get("w1", "u-b")).toEqual(member("w1", "u-b", "member", 1000, "m1"));
      expect(await s.members.get("w1", "nope")).toBeUndefined();
      expect(await s.members.get("w2", "u-b")).toBeUndefined();
      expect(await s.members.upsert([])).toEqual([]);
    });

    test("the same membership twice in one upsert: the later role wins", async () => {
      const s = store();
      const out = await s.members.upsert([member("w1", "u1", "member", 1000, "m1"), member("w1", "u1", "admin", 2000, "m2")]);
      expect(out).toEqual([member("w1", "u1", "member", 1000, "m1"), member("w1", "u1", "admin", 1000, "m1")]);
      expect(await s.members.count("w1")).toBe(1);
    });

    test("list is by creation time then insertion order, paged; count per workspace", async () => {
      const s = store();
      await s.members.upsert([member("w1", "u-b", "member", 1000, "m1"), member("w1", "u-a", "member", 1000, "m2")]);
      await s.members.upsert([member("w1", "u-0", "member", 1000, "m3"), member("w1", "u-z", "member", 500, "m4"), member("w2", "u-x", "member", 1, "m5")]);
      // a role change keeps the membership's place
      await s.members.upsert([member("w1", "u-b", "admin", 9000, "m9")]);
      expect((await s.members.list("w1", 0, 10)).map((m) => m.userId)).toEqual(["u-z", "u-b", "u-a", "u-0"]);
      expect(await s.members.list("w1", 1, 2)).toEqual([member("w1", "u-b", "admin", 1000, "m1"), member("w1", "u-a", "member", 1000, "m2")]);
      expect(await s.members.count("w1")).toBe(4);
      expect(await s.members.count("w2")).toBe(1);
      expect(await s.members.count("w3")).toBe(0);
    });

    test("remove deletes the given users' memberships of one workspace and counts them", async () => {
      const s = store();
      await s.members.upsert([member("w1", "u1"), member("w1", "u2"), member("w1", "u3"), member("w2", "u1")]);
      expect(await s.members.remove("w1", ["u1", "u3", "u9"])).toBe(2);
      expect(await s.members.remove("w1", [])).toBe(0);
      expect((await s.members.list("w1", 0, 10)).map((m) => m.userId)).toEqual(["u2"]);
      expect(await s.members.count("w2")).toBe(1);
    });
  });
}

let memberIds = 0;
function member(workspaceId: string, userId: string, role: "admin" | "member" = "member", createdAt = 1000, id = `mem-${++memberIds}`): WorkspaceMemberRecord {
  return { id, workspaceId, userId, role, createdAt };
}
