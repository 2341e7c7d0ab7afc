import { and, eq } from "drizzle-orm";
import type { UserIdentityStore } from "../identity-store";
import type { Conn } from "./client";
import { userIdentities } from "./schema";

export function pgUserIdentityStore({ db }: Conn): UserIdentityStore {
  return {
    async find(issuer, subject) {
      const [row] = await db
        .select({ userId: userIdentities.userId })
        .from(userIdentities)
        .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)));
      return row?.userId;
    },
    async link(identity) {
      await db.insert(userIdentities).values(identity).onConflictDoNothing();
    },
    async deleteForUser(userId) {
      return (await db.delete(userIdentities).where(eq(userIdentities.userId, userId)).returning({ s: userIdentities.subject })).length;
    },
  };
}
