import { eq } from "drizzle-orm";
import { expiredSessions } from "../queries/sign-in";
import type { InviteStore, PasswordStore, WebSessionStore } from "../store";
import type { Conn } from "./client";
import { userInvites, userPasswords, webSessions } from "./schema";

export function pgPasswordStore({ db }: Conn): PasswordStore {
  return {
    async get(userId) {
      const [row] = await db.select({ hash: userPasswords.hash }).from(userPasswords).where(eq(userPasswords.userId, userId));
      return row?.hash;
    },
    async put(userId, hash, now) {
      await db
        .insert(userPasswords)
        .values({ userId, hash, updatedAt: now })
        .onConflictDoUpdate({ target: userPasswords.userId, set: { hash, updatedAt: now } });
    },
    async delete(userId) {
      const rows = await db.delete(userPasswords).where(eq(userPasswords.userId, userId)).returning({ id: userPasswords.userId });
      return rows.length > 0;
    },
  };
}

export function pgWebSessionStore({ db }: Conn): WebSessionStore {
  return {
    async create(session) {
      await db.insert(webSessions).values(session);
      return session;
    },
    async get(id) {
      const [row] = await db.select().from(webSessions).where(eq(webSessions.id, id));
      return row;
    },
    async touch(id, lastSeenAt) {
      await db.update(webSessions).set({ lastSeenAt }).where(eq(webSessions.id, id));
    },
    async delete(id) {
      const rows = await db.delete(webSessions).where(eq(webSessions.id, id)).returning({ id: webSessions.id });
      return rows.length > 0;
    },
    async deleteForUser(userId) {
      const rows = await db.delete(webSessions).where(eq(webSessions.userId, userId)).returning({ id: webSessions.id });
      return rows.length;
    },
    async deleteExpired(now, idleSince) {
      const rows = await db
        .delete(webSessions)
        .where(expiredSessions(webSessions, now, idleSince))
        .returning({ id: webSessions.id });
      return rows.length;
    },
  };
}

export function pgInviteStore({ db }: Conn): InviteStore {
  return {
    async create(invite) {
      await db.insert(userInvites).values(invite);
      return invite;
    },
    async get(tokenHash) {
      const [row] = await db.select().from(userInvites).where(eq(userInvites.tokenHash, tokenHash));
      return row;
    },
    async take(tokenHash) {
      const [row] = await db.delete(userInvites).where(eq(userInvites.tokenHash, tokenHash)).returning();
      return row;
    },
    async deleteForUser(userId) {
      const rows = await db.delete(userInvites).where(eq(userInvites.userId, userId)).returning({ id: userInvites.tokenHash });
      return rows.length;
    },
  };
}
