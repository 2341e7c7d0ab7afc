import { eq } from "drizzle-orm";
import { expiredSessions } from "../queries/sign-in";
import type { InviteStore, PasswordStore, WebSessionStore } from "../store";
import type { Db, WriteStep } from "./client";
import { userInvites, userPasswords, webSessions } from "./schema";

export function sqlitePasswordStore(db: Db, write: WriteStep): PasswordStore {
  return {
    async get(userId) {
      return db.select({ hash: userPasswords.hash }).from(userPasswords).where(eq(userPasswords.userId, userId)).get()?.hash;
    },
    put: (userId, hash, now) =>
      write(
        () =>
          void db
            .insert(userPasswords)
            .values({ userId, hash, updatedAt: now })
            .onConflictDoUpdate({ target: userPasswords.userId, set: { hash, updatedAt: now } })
            .run(),
      ),
    delete: (userId) =>
      write(() => db.delete(userPasswords).where(eq(userPasswords.userId, userId)).returning({ id: userPasswords.userId }).get() !== undefined),
  };
}

export function sqliteWebSessionStore(db: Db, write: WriteStep): WebSessionStore {
  return {
    create: (session) =>
      write(() => {
        db.insert(webSessions).values(session).run();
        return session;
      }),
    async get(id) {
      return db.select().from(webSessions).where(eq(webSessions.id, id)).get();
    },
    touch: (id, lastSeenAt) => write(() => void db.update(webSessions).set({ lastSeenAt }).where(eq(webSessions.id, id)).run()),
    delete: (id) => write(() => db.delete(webSessions).where(eq(webSessions.id, id)).returning({ id: webSessions.id }).get() !== undefined),
    deleteForUser: (userId) => write(() => db.delete(webSessions).where(eq(webSessions.userId, userId)).returning({ id: webSessions.id }).all().length),
    deleteExpired: (now, idleSince) =>
      write(
        () =>
          db
            .delete(webSessions)
            .where(expiredSessions(webSessions, now, idleSince))
            .returning({ id: webSessions.id })
            .all().length,
      ),
  };
}

export function sqliteInviteStore(db: Db, write: WriteStep): InviteStore {
  return {
    create: (invite) =>
      write(() => {
        db.insert(userInvites).values(invite).run();
        return invite;
      }),
    async get(tokenHash) {
      return db.select().from(userInvites).where(eq(userInvites.tokenHash, tokenHash)).get();
    },
    take: (tokenHash) => write(() => db.delete(userInvites).where(eq(userInvites.tokenHash, tokenHash)).returning().get()),
    deleteForUser: (userId) => write(() => db.delete(userInvites).where(eq(userInvites.userId, userId)).returning({ id: userInvites.tokenHash }).all().length),
  };
}
