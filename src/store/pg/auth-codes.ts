import { eq, lt } from "drizzle-orm";
import type { AuthCodeRecord, AuthCodeStore } from "../store";
import type { Conn } from "./client";
import { authCodes } from "./schema";

export function pgAuthCodeStore({ db }: Conn): AuthCodeStore {
  return {
    async create(code) {
      await db.insert(authCodes).values(code);
      return code;
    },
    // one DELETE ... RETURNING: of concurrent takers, the row lock lets exactly one see the row
    async take(id) {
      const [row] = await db.delete(authCodes).where(eq(authCodes.id, id)).returning();
      return row as AuthCodeRecord | undefined;
    },
    async deleteExpired(now) {
      const rows = await db.delete(authCodes).where(lt(authCodes.expiresAt, now)).returning({ id: authCodes.id });
      return rows.length;
    },
    async deleteForUser(userId) {
      const rows = await db.delete(authCodes).where(eq(authCodes.userId, userId)).returning({ id: authCodes.id });
      return rows.length;
    },
  };
}
