import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import type { Db, WriteStep } from "./client";
import { apiKeys } from "./schema";
import type { ApiKeyRecord, ApiKeyStore } from "../store";
import { rateLimitColumns, withRateLimit } from "../columns";

type Row = typeof apiKeys.$inferSelect;

const toRecord = ({ deletedAt: _deleted, ...row }: Row): ApiKeyRecord => withRateLimit(row);

export function sqliteKeyStore(db: Db, write: WriteStep): ApiKeyStore {
  const live = isNull(apiKeys.deletedAt);
  // prepared once: the auth lookup of every request
  const byHash = db.select().from(apiKeys).where(and(eq(apiKeys.hash, sql.placeholder("hash")), live)).prepare();
  return {
    create: (key) =>
      write(() => {
        db.insert(apiKeys).values(rateLimitColumns(key)).run();
        return key;
      }),
    async get(hash) {
      const row = byHash.get({ hash });
      return row ? toRecord(row) : undefined;
    },
    async list({ workspaceId, includeDisabled, offset, limit }) {
      const filters = [eq(apiKeys.workspaceId, workspaceId), live];
      if (!includeDisabled) filters.push(eq(apiKeys.disabled, false));
      return db
        .select()
        .from(apiKeys)
        .where(and(...filters))
        .orderBy(asc(apiKeys.createdAt), asc(apiKeys.hash))
        .limit(limit)
        .offset(offset)
        .all()
        .map(toRecord);
    },
    update: (hash, patch, now) =>
      write(() => {
        const row = db.update(apiKeys).set({ ...rateLimitColumns(patch), updatedAt: now }).where(and(eq(apiKeys.hash, hash), live)).returning().get();
        return row ? toRecord(row) : undefined;
      }),
    delete: (hash, now) =>
      write(() => db.update(apiKeys).set({ deletedAt: now, disabled: true }).where(and(eq(apiKeys.hash, hash), live)).returning().get() !== undefined),
    reviveAsManagement: (hash, now, workspaceId) =>
      write(
        () =>
          db.update(apiKeys).set({ deletedAt: null, disabled: false, isManagement: true, expiresAt: null, updatedAt: now, workspaceId }).where(eq(apiKeys.hash, hash)).returning().get() !==
          undefined,
      ),
    async countManagement() {
      return db.select({ n: count() }).from(apiKeys).where(and(eq(apiKeys.isManagement, true), live)).get()?.n ?? 0;
    },
    async listByCreator(userId) {
      return db.select().from(apiKeys).where(and(eq(apiKeys.creatorUserId, userId), live)).orderBy(asc(apiKeys.createdAt), asc(apiKeys.hash)).all().map(toRecord);
    },
    deleteByCreator: (userId, now) =>
      write(() => db.update(apiKeys).set({ deletedAt: now, disabled: true }).where(and(eq(apiKeys.creatorUserId, userId), live)).returning({ hash: apiKeys.hash }).all().length),
  };
}
