import { and, eq } from "drizzle-orm";
import type { UserIdentityStore } from "../identity-store";
import type { Db, WriteStep } from "./client";
import { userIdentities } from "./schema";

export function sqliteUserIdentityStore(db: Db, write: WriteStep): UserIdentityStore {
  return {
    async find(issuer, subject) {
      return db
        .select({ userId: userIdentities.userId })
        .from(userIdentities)
        .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)))
        .get()?.userId;
    },
    link: (identity) => write(() => void db.insert(userIdentities).values(identity).onConflictDoNothing().run()),
    deleteForUser: (userId) =>
      write(() => db.delete(userIdentities).where(eq(userIdentities.userId, userId)).returning({ s: userIdentities.subject }).all().length),
  };
}
