import { eq, lt } from "drizzle-orm";
import type { AuthCodeRecord, AuthCodeStore } from "../store";
import type { Db, WriteStep } from "./client";
import { authCodes } from "./schema";

export function sqliteAuthCodeStore(db: Db, write: WriteStep): AuthCodeStore {
  return {
    create: (code) =>
      write(() => {
        db.insert(authCodes).values(code).run();
        return code;
      }),
    // one DELETE ... RETURNING: a second taker finds nothing, however close behind
    take: (id) => write(() => db.delete(authCodes).where(eq(authCodes.id, id)).returning().get() as AuthCodeRecord | undefined),
    deleteExpired: (now) => write(() => db.delete(authCodes).where(lt(authCodes.expiresAt, now)).returning({ id: authCodes.id }).all().length),
    deleteForUser: (userId) => write(() => db.delete(authCodes).where(eq(authCodes.userId, userId)).returning({ id: authCodes.id }).all().length),
  };
}
