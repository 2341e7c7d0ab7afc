import { and, eq, inArray, lt, lte } from "drizzle-orm";
import { responseQueries } from "../queries/responses";
import { conversationOf, itemRows, itemsById, responseRow } from "../response-rows";
import type { ResponseStateStore } from "../store";
import type { Db, SqliteWriter, WriteStep } from "./client";
import { responseItems, storedResponses } from "./schema";

export function sqliteResponseStateStore(db: Db, write: WriteStep, writer: SqliteWriter): ResponseStateStore {
  const q = responseQueries(storedResponses, responseItems);
  return {
    save: (response) =>
      write(() =>
        writer.atomic(() => {
          const inserted =
            db.insert(storedResponses).values(responseRow(response)).onConflictDoNothing().returning({ id: storedResponses.id }).all().length === 1;
          if (!inserted) return;
          const rows = itemRows(response);
          if (rows.length > 0) db.insert(responseItems).values(rows).run();
          if (response.referencedItemIds.length === 0) return;
          db.update(responseItems)
            .set({ expiresAt: response.expiresAt })
            .where(
              and(
                eq(responseItems.workspaceId, response.workspaceId),
                inArray(responseItems.itemId, response.referencedItemIds),
                lt(responseItems.expiresAt, response.expiresAt),
              ),
            )
            .run();
        }),
      ),
    async items(workspaceId, ids, now) {
      if (ids.length === 0) return new Map();
      const rows = db
        .select({ itemId: responseItems.itemId, item: responseItems.item })
        .from(responseItems)
        .where(q.items(workspaceId, ids, now))
        .orderBy(...q.itemsOrder)
        .all();
      return itemsById(rows);
    },
    async conversation(workspaceId, responseId, now) {
      const response = db
        .select({ input: storedResponses.input })
        .from(storedResponses)
        .where(q.response(workspaceId, responseId, now))
        .get();
      if (!response) return undefined;
      const items = db
        .select({ item: responseItems.item })
        .from(responseItems)
        .where(q.outputOf(responseId))
        .orderBy(...q.outputOrder)
        .all();
      return conversationOf(response.input, items);
    },
    purgeExpired: (now) =>
      write(() =>
        writer.atomic(() => {
          db.delete(responseItems).where(lte(responseItems.expiresAt, now)).run();
          return db.delete(storedResponses).where(lte(storedResponses.expiresAt, now)).returning({ id: storedResponses.id }).all().length;
        }),
      ),
  };
}
