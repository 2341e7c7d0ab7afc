/**
 * What the shared query shapes (./byok.ts, ./keys.ts, ...) are built on: a table of either
 * dialect, and the dialect's way of ordering. Conditions, orders and the values of updates are
 * written once there; each dialect runs them its own way (SQLite: synchronous statements in write
 * steps, some prepared once; PostgreSQL: awaited queries).
 */
import type { AnyColumn, SQL } from "drizzle-orm";
import type { PgTableOf, SqliteTableOf } from "../tables/build";

/** A table described in ../tables/ as either dialect built it. */
export type EitherTable<T> = SqliteTableOf<T> | PgTableOf<T>;

/**
 * ORDER BY terms that sort alike on both dialects: text by code point and NULLs first in
 * ascending order, as SQLite sorts by itself (sqlite/order.ts, pg/order.ts).
 */
export type Ordering = {
  ascText(column: AnyColumn): SQL;
  descText(column: AnyColumn): SQL;
  ascValue(column: AnyColumn | SQL): SQL;
  descValue(column: AnyColumn | SQL): SQL;
  /** `column < value` for text, by code point as ascText sorts it (a keyset page's position) */
  textBefore(column: AnyColumn, value: string): SQL;
  /**
   * The order a row was inserted in, for the tables that keep it: SQLite's rowid, PostgreSQL's
   * `seq` identity (`insertionOrder` in ../tables/kit.ts); unqualified.
   */
  inserted: SQL;
  /** the same, qualified by its table's name (a query that joins another table) */
  insertedIn(table: string): SQL;
};
