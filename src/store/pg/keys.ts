import { and, count, eq, isNull } from "drizzle-orm";
import type { Conn } from "./client";
import { ascText, ascValue } from "./order";
import { apiKeys } from "./schema";
import type { ApiKeyRecord, ApiKeyStore } from "../store";
import { rateLimitColumns, withRateLimit } from "../columns";

type Row = typeof apiKeys.$inferSelect;

const toRecord = ({ deletedAt: _deleted, ...row }: Row): ApiKeyRecord => withRateLimit(row);

export function pgKeyStore({ db }: Conn): ApiKeyStore {
  const live = isNull(apiKeys.deletedAt);
  return {
    async create(key) {
      await db.insert(apiKeys).values(rateLimitColumns(key));
      return key;
    },
    async get(hash) {
      const [row] = await db.select().from(apiKeys).where(and(eq(apiKeys.hash, hash), live));
      return row ? toRecord(row) : undefined;
    },
    async list({ workspaceId, includeDisabled, offset, limit }) {
      const filters = [eq(apiKeys.workspaceId, workspaceId), live];
      if (!includeDisabled) filters.push(eq(apiKeys.disabled, false));
      const rows = await db
        .select()
        .from(apiKeys)
        .where(and(...filters))
        .orderBy(ascValue(apiKeys.createdAt), ascText(apiKeys.hash))
        .limit(limit)
        .offset(offset);
      return rows.map(toRecord);
    },
    async update(hash, patch, now) {
      const [row] = await db.update(apiKeys).set({ ...rateLimitColumns(patch), updatedAt: now }).where(and(eq(apiKeys.hash, hash), live)).returning();
      return row ? toRecord(row) : undefined;
    },
    async delete(hash, now) {
      const rows = await db.update(apiKeys).set({ deletedAt: now, disabled: true }).where(and(eq(apiKeys.hash, hash), live)).returning({ hash: apiKeys.hash });
      return rows.length > 0;
    },
    async reviveAsManagement(hash, now, workspaceId) {
      const rows = await db
        .update(apiKeys)
        .set({ deletedAt: null, disabled: false, isManagement: true, expiresAt: null, updatedAt: now, workspaceId })
        .where(eq(apiKeys.hash, hash))
        .returning({ hash: apiKeys.hash });
      return rows.length > 0;
    },
    async countManagement() {
      const [row] = await db.select({ n: count() }).from(apiKeys).where(and(eq(apiKeys.isManagement, true), live));
      return row?.n ?? 0;
    },
    async listByCreator(userId) {
      const rows = await db.select().from(apiKeys).where(and(eq(apiKeys.creatorUserId, userId), live)).orderBy(ascValue(apiKeys.createdAt), ascText(apiKeys.hash));
      return rows.map(toRecord);
    },
    async deleteByCreator(userId, now) {
      const rows = await db.update(apiKeys).set({ deletedAt: now, disabled: true }).where(and(eq(apiKeys.creatorUserId, userId), live)).returning({ hash: apiKeys.hash });
      return rows.length;
    },
  };
}
