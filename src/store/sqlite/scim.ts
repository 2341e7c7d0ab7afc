import { asc, eq } from "drizzle-orm";
import type { ScimTokenRecord, ScimTokenStore, ScimUserStore } from "../identity-store";
import type { Db, WriteStep } from "./client";
import { scimTokens, scimUsers } from "./schema";

export function sqliteScimTokenStore(db: Db, write: WriteStep): ScimTokenStore {
  return {
    create: (token) =>
      write(() => {
        db.insert(scimTokens).values(token).run();
        return token;
      }),
    async byHash(tokenHash) {
      return db.select().from(scimTokens).where(eq(scimTokens.tokenHash, tokenHash)).get();
    },
    async list() {
      return db.select().from(scimTokens).orderBy(asc(scimTokens.createdAt), asc(scimTokens.id)).all();
    },
    delete: (id) => write(() => db.delete(scimTokens).where(eq(scimTokens.id, id)).returning().get() as ScimTokenRecord | undefined),
  };
}

export function sqliteScimUserStore(db: Db, write: WriteStep): ScimUserStore {
  return {
    async get(userId) {
      return db.select().from(scimUsers).where(eq(scimUsers.userId, userId)).get();
    },
    put: (record) =>
      write(() => {
        const { userId: _id, ...values } = record;
        db.insert(scimUsers).values(record).onConflictDoUpdate({ target: scimUsers.userId, set: values }).run();
        return record;
      }),
    delete: (userId) => write(() => db.delete(scimUsers).where(eq(scimUsers.userId, userId)).returning({ id: scimUsers.userId }).get() !== undefined),
  };
}
