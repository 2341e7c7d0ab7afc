import { asc, desc, lt, sql } from "drizzle-orm";
import type { Ordering } from "../queries/shapes";

/** SQLite compares text by code point (BINARY) and sorts NULLs first ascending by itself. */
export const order: Ordering = {
  ascText: asc,
  descText: desc,
  ascValue: asc,
  descValue: desc,
  textBefore: lt,
  inserted: sql`rowid`,
  insertedIn: (table) => sql.raw(`"${table}".rowid`),
};
