import { asc, desc, sql } from "drizzle-orm";
import type { Ordering } from "../queries/shapes";

/** SQLite compares text by code point (BINARY) and sorts NULLs first ascending by itself. */
export const order: Ordering = { ascText: asc, descText: desc, ascValue: asc, descValue: desc, inserted: sql`rowid` };
