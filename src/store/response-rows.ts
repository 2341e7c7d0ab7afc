/**
 * StoredResponse <-> rows, shared by both dialects: JSON travels as text, so an item reads back
 * exactly as it was stored.
 */
import type { StoredResponse } from "./store";

export function responseRow(response: StoredResponse) {
  return {
    id: response.id,
    workspaceId: response.workspaceId,
    input: JSON.stringify(response.input),
    createdAt: response.createdAt,
    expiresAt: response.expiresAt,
  };
}

export function itemRows(response: StoredResponse) {
  return response.output.map((item, position) => ({
    responseId: response.id,
    position,
    workspaceId: response.workspaceId,
    itemId: typeof item.id === "string" ? item.id : null,
    item: JSON.stringify(item),
    expiresAt: response.expiresAt,
  }));
}

/** Rows in storage order (oldest expiry first), so a later response's item wins an id stored twice. */
export function itemsById(rows: Array<{ itemId: string | null; item: string }>): Map<string, unknown> {
  const found = new Map<string, unknown>();
  for (const row of rows) if (row.itemId !== null) found.set(row.itemId, JSON.parse(row.item));
  return found;
}

export function conversationOf(input: string, items: Array<{ item: string }>): { input: unknown[]; output: unknown[] } {
  return { input: JSON.parse(input) as unknown[], output: items.map((row) => JSON.parse(row.item) as unknown) };
}
