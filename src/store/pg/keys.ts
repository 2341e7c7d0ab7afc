import { count, eq, lte } from "drizzle-orm";
import { apiKeyColumns, apiKeyRecord } from "../columns";
import { rotationStatements } from "../queries/key-rotation";
import { deletedKey, keyQueries, revivedManagementKey } from "../queries/keys";
import type { ApiKeyStore } from "../store";
import { type Conn, lockedTransaction } from "./client";
import { order } from "./order";
import { apiKeyPreviousHashes, apiKeys } from "./schema";

export function pgKeyStore(conn: Conn): ApiKeyStore {
  const { db } = conn;
  const q = keyQueries(apiKeys, order);
  return {
    async create(key) {
      await db.insert(apiKeys).values(apiKeyColumns(key));
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
        .set({ ...apiKeyColumns(patch), updatedAt: now })
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
    rotate: ({ hash, newHash, label, previousValidUntil, now }) =>
      lockedTransaction(conn, async (tx) => {
        const [row] = await tx.update(apiKeys).set({ hash: newHash, label, updatedAt: now }).where(q.byHash(hash)).returning();
        if (!row) return undefined;
        for (const rename of rotationStatements(hash, newHash)) await tx.execute(rename);
        await tx.delete(apiKeyPreviousHashes).where(lte(apiKeyPreviousHashes.validUntil, now));
        if (previousValidUntil !== null && previousValidUntil > now)
          await tx.insert(apiKeyPreviousHashes).values({ hash, keyHash: newHash, validUntil: previousValidUntil, createdAt: now });
        return apiKeyRecord(row);
      }),
    async previous(hash) {
      const [row] = await db.select().from(apiKeyPreviousHashes).where(eq(apiKeyPreviousHashes.hash, hash));
      return row ? { keyHash: row.keyHash, validUntil: row.validUntil } : undefined;
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
