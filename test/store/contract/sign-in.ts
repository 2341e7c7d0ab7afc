/** Contract: password hashes, browser sessions, invites, authorization codes, and what removing a user needs. */
import { describe, expect, test } from "bun:test";
import type { AuthCodeRecord, Store } from "../../../src/store/store";
import { apiKey, NOW, user, workspace } from "./fixtures";

const code = (id: string, extra: Partial<AuthCodeRecord> = {}): AuthCodeRecord => ({
  id,
  userId: "u1",
  workspaceId: "w1",
  callbackUrl: "https://app.example/cb",
  appId: 123456,
  codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
  codeChallengeMethod: "S256",
  limitNanos: 5_000_000_000,
  limitReset: "monthly",
  keyExpiresAt: NOW + 86_400_000,
  keyLabel: "My app",
  createdAt: NOW,
  expiresAt: NOW + 600_000,
  ...extra,
});

export function signInContract(store: () => Store): void {
  describe("passwords", () => {
    test("put sets and replaces a hash; get reads it; delete removes it", async () => {
      const s = store();
      expect(await s.passwords.get("u1")).toBeUndefined();
      await s.passwords.put("u1", "$argon2id$one", NOW);
      await s.passwords.put("u1", "$argon2id$two", NOW + 1);
      expect(await s.passwords.get("u1")).toBe("$argon2id$two");
      expect(await s.passwords.delete("u1")).toBe(true);
      expect(await s.passwords.delete("u1")).toBe(false);
      expect(await s.passwords.get("u1")).toBeUndefined();
    });
  });

  describe("sessions", () => {
    const session = (id: string, userId: string, lastSeenAt: number, expiresAt: number) => ({ id, userId, createdAt: NOW, lastSeenAt, expiresAt });

    test("create, get, touch, delete", async () => {
      const s = store();
      await s.sessions.create(session("s1", "u1", NOW, NOW + 1000));
      await s.sessions.touch("s1", NOW + 5);
      expect(await s.sessions.get("s1")).toEqual(session("s1", "u1", NOW + 5, NOW + 1000));
      expect(await s.sessions.delete("s1")).toBe(true);
      expect(await s.sessions.get("s1")).toBeUndefined();
    });

    test("deleteForUser and deleteExpired remove exactly their sessions", async () => {
      const s = store();
      await s.sessions.create(session("a", "u1", NOW, NOW + 1000));
      await s.sessions.create(session("b", "u1", NOW, NOW + 1000));
      await s.sessions.create(session("c", "u2", NOW, NOW + 1000));
      await s.sessions.create(session("ended", "u2", NOW, NOW + 10));
      await s.sessions.create(session("idle", "u2", NOW - 100, NOW + 1000));
      expect(await s.sessions.deleteExpired(NOW + 10, NOW - 50)).toBe(2);
      expect(await s.sessions.deleteForUser("u1")).toBe(2);
      expect(await s.sessions.get("c")).toEqual(session("c", "u2", NOW, NOW + 1000));
      expect(await s.sessions.get("a")).toBeUndefined();
    });
  });

  describe("invites", () => {
    test("take returns an invite once", async () => {
      const s = store();
      const invite = { tokenHash: "t1", userId: "u1", createdAt: NOW, expiresAt: NOW + 1 };
      await s.invites.create(invite);
      expect(await s.invites.get("t1")).toEqual(invite);
      const taken = await Promise.all([s.invites.take("t1"), s.invites.take("t1")]);
      expect(taken.filter(Boolean)).toEqual([invite]);
      expect(await s.invites.get("t1")).toBeUndefined();
      await s.invites.create({ ...invite, tokenHash: "t2" });
      expect(await s.invites.deleteForUser("u1")).toBe(1);
    });
  });

  describe("authorization codes", () => {
    test("a code reads back exactly, and only one of 20 concurrent takers gets it", async () => {
      const s = store();
      await s.authCodes.create(code("c1"));
      const taken = await Promise.all(Array.from({ length: 20 }, () => s.authCodes.take("c1")));
      expect(taken.filter(Boolean)).toEqual([code("c1")]);
      expect(await s.authCodes.take("c1")).toBeUndefined();
    });

    test("nullable fields round-trip; deleteExpired and deleteForUser", async () => {
      const s = store();
      const bare = code("c2", {
        codeChallenge: null,
        codeChallengeMethod: null,
        limitNanos: null,
        limitReset: null,
        keyExpiresAt: null,
        keyLabel: null,
        expiresAt: NOW - 1,
      });
      await s.authCodes.create(bare);
      await s.authCodes.create(code("c3", { userId: "u2" }));
      await s.authCodes.create(code("c4"));
      expect(await s.authCodes.deleteExpired(NOW)).toBe(1);
      expect(await s.authCodes.deleteForUser("u2")).toBe(1);
      expect(await s.authCodes.take("c4")).toEqual(code("c4"));
      await s.authCodes.create(bare);
      expect(await s.authCodes.take("c2")).toEqual(bare);
    });
  });

  describe("removing a user", () => {
    test("users: findByEmail ignores case, update, delete", async () => {
      const s = store();
      await s.users.create(user("u1", 1000, { email: "Ada@Example.com" }));
      await s.users.create(user("u2", 2000, { email: "ada@example.com" }));
      await s.users.create(user("u3", 3000));
      expect((await s.users.findByEmail("ADA@example.COM")).map((u) => u.id)).toEqual(["u1", "u2"]);
      expect(await s.users.update("u3", { email: "new@example.com" })).toEqual(user("u3", 3000, { email: "new@example.com" }));
      expect(await s.users.update("nobody", { email: "x@example.com" })).toBeUndefined();
      expect(await s.users.delete("u1")).toBe(true);
      expect(await s.users.delete("u1")).toBe(false);
      expect(await s.users.get("u1")).toBeUndefined();
    });

    test("keys: listByCreator and deleteByCreator cover every workspace and only live keys", async () => {
      const s = store();
      await s.workspaces.create(workspace("w1", 1000));
      await s.workspaces.create(workspace("w2", 1000));
      await s.keys.create(apiKey("k1", "w1", 1, { creatorUserId: "u1" }));
      await s.keys.create(apiKey("k2", "w2", 2, { creatorUserId: "u1", disabled: true }));
      await s.keys.create(apiKey("k3", "w1", 3, { creatorUserId: "u2" }));
      await s.keys.create(apiKey("k4", "w1", 4, { creatorUserId: "u1" }));
      await s.keys.delete("k4", NOW);
      expect((await s.keys.listByCreator("u1")).map((k) => k.hash)).toEqual(["k1", "k2"]);
      expect(await s.keys.deleteByCreator("u1", NOW)).toBe(2);
      expect(await s.keys.get("k1")).toBeUndefined();
      expect(await s.keys.listByCreator("u1")).toEqual([]);
      expect((await s.keys.get("k3"))?.hash).toBe("k3");
    });

    test("members: removeUser leaves every workspace", async () => {
      const s = store();
      const m = (ws: string, u: string) => ({ id: `${ws}-${u}`, workspaceId: ws, userId: u, role: "member" as const, createdAt: NOW });
      await s.members.upsert([m("w1", "u1"), m("w2", "u1"), m("w1", "u2")]);
      expect(await s.members.removeUser("u1")).toBe(2);
      expect(await s.members.get("w2", "u1")).toBeUndefined();
      expect(await s.members.get("w1", "u2")).toEqual(m("w1", "u2"));
    });
  });
}
