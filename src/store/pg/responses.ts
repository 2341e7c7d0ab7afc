import { sql } from "drizzle-orm";
import { responseQueries } from "../queries/responses";
import { conversationOf, itemRows, itemsById, responseRow } from "../response-rows";
import type { ResponseStateStore } from "../store";
import type { Conn } from "./client";
import { responseItems, storedResponses } from "./schema";

/**
 * Responses state on PostgreSQL. Saving is one statement (one round trip, atomic without a
 * transaction): the response, its items when the response is new, and the longer life of the
 * items it referred to. JSON.stringify writes NUL and lone surrogates as escapes, so the stored
 * text is always valid for PostgreSQL.
 */
export function pgResponseStateStore({ db }: Conn): ResponseStateStore {
  const q = responseQueries(storedResponses, responseItems);
  return {
    async save(response) {
      const row = responseRow(response);
      const items = itemRows(response).map((r) => ({
        response_id: r.responseId,
        position: r.position,
        workspace_id: r.workspaceId,
        item_id: r.itemId,
        item: r.item,
        expires_at: r.expiresAt,
      }));
      await db.execute(sql`
        with saved as (
          insert into stored_responses (id, workspace_id, input, created_at, expires_at)
          values (${row.id}::text, ${row.workspaceId}::text, ${row.input}::text, ${row.createdAt}::bigint, ${row.expiresAt}::bigint)
          on conflict (id) do nothing returning id
        ),
        items as (
          insert into response_items (response_id, position, workspace_id, item_id, item, expires_at)
          select x.response_id, x.position, x.workspace_id, x.item_id, x.item, x.expires_at
          from json_to_recordset(${JSON.stringify(items)}::text::json)
            as x(response_id text, position integer, workspace_id text, item_id text, item text, expires_at bigint)
          where exists (select 1 from saved)
        )
        update response_items set expires_at = ${row.expiresAt}::bigint
        where workspace_id = ${row.workspaceId}::text
          and item_id in (select value from json_array_elements_text(${JSON.stringify(response.referencedItemIds)}::text::json))
          and expires_at < ${row.expiresAt}::bigint
          and exists (select 1 from saved)`);
    },
    async items(workspaceId, ids, now) {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ itemId: responseItems.itemId, item: responseItems.item })
        .from(responseItems)
        .where(q.items(workspaceId, ids, now))
        .orderBy(...q.itemsOrder);
      return itemsById(rows);
    },
    async conversation(workspaceId, responseId, now) {
      const [response] = await db
        .select({ input: storedResponses.input })
        .from(storedResponses)
        .where(q.response(workspaceId, responseId, now));
      if (!response) return undefined;
      const items = await db
        .select({ item: responseItems.item })
        .from(responseItems)
        .where(q.outputOf(responseId))
        .orderBy(...q.outputOrder);
      return conversationOf(response.input, items);
    },
    async purgeExpired(now) {
      const gone = await db.execute<{ id: string }>(sql`
        with items as (delete from response_items where expires_at <= ${now}::bigint)
        delete from stored_responses where expires_at <= ${now}::bigint returning id`);
      return gone.length;
    },
  };
}
