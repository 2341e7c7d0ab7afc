import { count, eq } from "drizzle-orm";
import { apiKeyRecord, rateLimitColumns } from "../columns";
import { deletedKey, keyQueries, revivedManagementKey } from "../queries/keys";
import type { ApiKeyStore } from "../store";
import type { Conn } from "./client";
import { order } from "./order";
import { apiKeys } from "./schema";

export function pgKeyStore({ db }: Conn): ApiKeyStore {
  const q = keyQueries(apiKeys, order);
  return {
    async create(key) {
      await db.insert(apiKeys).values(rateLimitColumns(key));
      return key;
    },
    async get(hash) {
      const [row] = await db.select().from(apiKeys).where(q.byHash(hash));
      return row ? apiKeyRecord(row) : undefined;
    },
    async list({ workspaceId, includeDisabled, offset, limit }) {
      const rows = await db
        .select()
        .from(apiKeys)
        .where(q.listed(workspaceId, includeDisabled))
        .orderBy(...q.order)
        .limit(limit)
        .offset(offset);
      return rows.map(apiKeyRecord);
    },
    async update(hash, patch, now) {
      const [row] = await db
        .update(apiKeys)
        .set({ ...rateLimitColumns(patch), updatedAt: now })
        .where(q.byHash(hash))
        .returning();
      return row ? apiKeyRecord(row) : undefined;
    },
    async delete(hash, now) {
      const rows = await db.update(apiKeys).set(deletedKey(now)).where(q.byHash(hash)).returning({ hash: apiKeys.hash });
      return rows.length > 0;
    },
    async reviveAsManagement(hash, now, workspaceId) {
      const rows = await db.update(apiKeys).set(revivedManagementKey(now, workspaceId)).where(eq(apiKeys.hash, hash)).returning({ hash: apiKeys.hash });
      return rows.length > 0;
    },
    async countManagement() {
      const [row] = await db.select({ n: count() }).from(apiKeys).where(q.management);
      return row?.n ?? 0;
    },
    async listByCreator(userId) {
      const rows = await db
        .select()
        .from(apiKeys)
        .where(q.byCreator(userId))
        .orderBy(...q.order);
      return rows.map(apiKeyRecord);
    },
    async deleteByCreator(userId, now) {
      const rows = await db.update(apiKeys).set(deletedKey(now)).where(q.byCreator(userId)).returning({ hash: apiKeys.hash });
      return rows.length;
    },
  };
}
