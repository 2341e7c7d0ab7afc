import { asc, count, eq, or } from "drizzle-orm";
import type { Db } from "./client";
import { workspaces } from "./schema";
import type { WorkspaceRecord, WorkspaceStore } from "../store";

type Row = typeof workspaces.$inferSelect;

const toRecord = (row: Row): WorkspaceRecord => ({ ...row, settings: JSON.parse(row.settings) as Record<string, unknown> });

export function sqliteWorkspaceStore(db: Db): WorkspaceStore {
  return {
    create(ws) {
      db.insert(workspaces).values({ ...ws, settings: JSON.stringify(ws.settings) }).run();
      return ws;
    },
    find(ref) {
      const row = db.select().from(workspaces).where(or(eq(workspaces.id, ref), eq(workspaces.slug, ref))).get();
      return row ? toRecord(row) : undefined;
    },
    getDefault() {
      const row = db.select().from(workspaces).where(eq(workspaces.isDefault, true)).get();
      return row ? toRecord(row) : undefined;
    },
    list(offset, limit) {
      return db.select().from(workspaces).orderBy(asc(workspaces.createdAt), asc(workspaces.id)).limit(limit).offset(offset).all().map(toRecord);
    },
    count() {
      return db.select({ n: count() }).from(workspaces).get()?.n ?? 0;
    },
  };
}
