import { asc, eq } from "drizzle-orm";
import type { ScimTokenStore, ScimUserStore } from "../identity-store";
import type { Conn } from "./client";
import { scimTokens, scimUsers } from "./schema";

export function pgScimTokenStore({ db }: Conn): ScimTokenStore {
  return {
    async create(token) {
      await db.insert(scimTokens).values(token);
      return token;
    },
    async byHash(tokenHash) {
      const [row] = await db.select().from(scimTokens).where(eq(scimTokens.tokenHash, tokenHash));
      return row;
    },
    async list() {
      return db.select().from(scimTokens).orderBy(asc(scimTokens.createdAt), asc(scimTokens.id));
    },
    async delete(id) {
      const [row] = await db.delete(scimTokens).where(eq(scimTokens.id, id)).returning();
      return row;
    },
  };
}

export function pgScimUserStore({ db }: Conn): ScimUserStore {
  return {
    async get(userId) {
      const [row] = await db.select().from(scimUsers).where(eq(scimUsers.userId, userId));
      return row;
    },
    async put(record) {
      const { userId: _id, ...values } = record;
      await db.insert(scimUsers).values(record).onConflictDoUpdate({ target: scimUsers.userId, set: values });
      return record;
    },
    async delete(userId) {
      return (await db.delete(scimUsers).where(eq(scimUsers.userId, userId)).returning({ id: scimUsers.userId })).length > 0;
    },
  };
}
