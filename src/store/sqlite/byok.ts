import { and, asc, count, eq, isNull, max, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "./client";
import { byokCredentials } from "./schema";
import type { ReadCache } from "./read-cache";
import type { ByokFilter, ByokPatch, ByokRecord, ByokStore } from "../store";

type Row = typeof byokCredentials.$inferSelect;

const parseList = (text: string | null): string[] | null => (text === null ? null : (JSON.parse(text) as string[]));
const listText = (list: string[] | null | undefined) => (list === undefined ? undefined : list === null ? null : JSON.stringify(list));

function toRecord({ deletedAt: _deleted, ...row }: Row): ByokRecord {
  return {
    ...row,
    allowedModels: parseList(row.allowedModels),
    allowedUserIds: parseList(row.allowedUserIds),
    allowedApiKeyHashes: parseList(row.allowedApiKeyHashes),
  };
}

function toColumns(patch: ByokPatch) {
  const { allowedModels, allowedUserIds, allowedApiKeyHashes, ...rest } = patch;
  return { ...rest, allowedModels: listText(allowedModels), allowedUserIds: listText(allowedUserIds), allowedApiKeyHashes: listText(allowedApiKeyHashes) };
}

export function sqliteByokStore(db: Db, cache: ReadCache<ByokRecord[]>): ByokStore {
  const live = isNull(byokCredentials.deletedAt);
  const where = (filter: ByokFilter): SQL => {
    const parts: SQL[] = [live];
    if (filter.workspaceId !== undefined) parts.push(eq(byokCredentials.workspaceId, filter.workspaceId));
    if (filter.provider !== undefined) parts.push(eq(byokCredentials.provider, filter.provider));
    return and(...parts)!;
  };
  const order = [asc(byokCredentials.sortOrder), asc(byokCredentials.createdAt), asc(byokCredentials.id)];
  // prepared once: every inference request asks which credentials its workspace has
  const usableIn = db
    .select()
    .from(byokCredentials)
    .where(and(live, eq(byokCredentials.disabled, false), or(eq(byokCredentials.workspaceId, sql.placeholder("workspaceId")), isNull(byokCredentials.workspaceId))))
    .orderBy(...order)
    .prepare();
  return {
    create(cred) {
      cache.clear();
      const scope = and(
        live,
        eq(byokCredentials.provider, cred.provider),
        cred.workspaceId === null ? isNull(byokCredentials.workspaceId) : eq(byokCredentials.workspaceId, cred.workspaceId),
      );
      const last = db.select({ n: max(byokCredentials.sortOrder) }).from(byokCredentials).where(scope).get()?.n;
      const record: ByokRecord = { ...cred, sortOrder: last === null || last === undefined ? 0 : last + 1 };
      db.insert(byokCredentials).values({ ...record, ...toColumns(record) }).run();
      return record;
    },
    get(id) {
      const row = db.select().from(byokCredentials).where(and(eq(byokCredentials.id, id), live)).get();
      return row ? toRecord(row) : undefined;
    },
    list(filter, offset, limit) {
      return db
        .select()
        .from(byokCredentials)
        .where(where(filter))
        .orderBy(asc(byokCredentials.workspaceId), asc(byokCredentials.provider), ...order)
        .limit(limit)
        .offset(offset)
        .all()
        .map(toRecord);
    },
    count(filter) {
      return db.select({ n: count() }).from(byokCredentials).where(where(filter)).get()?.n ?? 0;
    },
    update(id, patch, now) {
      cache.clear();
      const row = db
        .update(byokCredentials)
        .set({ ...toColumns(patch), updatedAt: now })
        .where(and(eq(byokCredentials.id, id), live))
        .returning()
        .get();
      return row ? toRecord(row) : undefined;
    },
    delete(id, now) {
      cache.clear();
      const row = db
        .update(byokCredentials)
        .set({ deletedAt: now, encryptedKey: "", disabled: true, updatedAt: now })
        .where(and(eq(byokCredentials.id, id), live))
        .returning({ id: byokCredentials.id })
        .get();
      return row !== undefined;
    },
    usable(workspaceId) {
      return cache.get(workspaceId, () => usableIn.all({ workspaceId }).map(toRecord)) ?? [];
    },
  };
}
