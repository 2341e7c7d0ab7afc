import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import type { Ordering } from "../queries/shapes";

/**
 * ORDER BY terms that sort as SQLite does, whatever the database's collation: text by code
 * point (COLLATE "C"), NULLs before every value in ascending order.
 */
export const ascText = (column: AnyColumn): SQL => sql`${column} collate "C" asc nulls first`;
export const descText = (column: AnyColumn): SQL => sql`${column} collate "C" desc nulls last`;
export const ascValue = (column: AnyColumn | SQL): SQL => sql`${column} asc nulls first`;
export const descValue = (column: AnyColumn | SQL): SQL => sql`${column} desc nulls last`;

export const order: Ordering = {
  ascText,
  descText,
  ascValue,
  descValue,
  textBefore: (column, value) => sql`${column} collate "C" < ${value}`,
  inserted: sql`seq`,
  insertedIn: (table) => sql.raw(`"${table}".seq`),
};
