/**
 * Builds the tables described with the column kit (./kit.ts) as drizzle tables of one dialect:
 * `sqlite/schema.ts` and `pg/schema.ts` export what these make, and drizzle-kit reads them there.
 */
import { type BuildColumns, type ColumnBuilderBase, isNotNull } from "drizzle-orm";
import * as pg from "drizzle-orm/pg-core";
import * as sqlite from "drizzle-orm/sqlite-core";
import { Column, type KitColumn, type TableExtra, type TableSpec } from "./kit";

type SqliteBuilders<C> = { [K in keyof C as C[K] extends { sqlite: () => unknown } ? K : never]: C[K] extends { sqlite: () => infer S } ? S : never };
type PgBuilders<C> = { [K in keyof C]: C[K] extends { pg: () => infer P } ? P : never };

/** what `sqliteTable(name, columns)` makes of the table's SQLite recipes */
export type SqliteTableOf<T> =
  T extends TableSpec<infer N, infer C>
    ? sqlite.SQLiteTableWithColumns<{
        name: N;
        schema: undefined;
        columns: BuildColumns<N, Extract<SqliteBuilders<C>, Record<string, ColumnBuilderBase>>, "sqlite">;
        dialect: "sqlite";
      }>
    : never;

/** what `pgTable(name, columns)` makes of the table's PostgreSQL recipes */
export type PgTableOf<T> =
  T extends TableSpec<infer N, infer C>
    ? pg.PgTableWithColumns<{
        name: N;
        schema: undefined;
        columns: BuildColumns<N, Extract<PgBuilders<C>, Record<string, ColumnBuilderBase>>, "pg">;
        dialect: "pg";
      }>
    : never;

/** Every table of a module of descriptions (./accounts.ts, ...), as SQLite tables under the same names. */
export function sqliteTables<M extends Record<string, TableSpec>>(specs: M): { [K in keyof M]: SqliteTableOf<M[K]> } {
  return mapTables(specs, (spec) => {
    const builders = Object.fromEntries(Object.entries(spec.columns).flatMap(([key, c]) => (c instanceof Column ? [[key, c.sqlite()]] : [])));
    return sqlite.sqliteTable(spec.name, builders, (self) =>
      spec.extras(spec.columns).map((extra) => {
        const columns = columnsOf(spec, extra, self);
        if (extra.kind === "primaryKey") return sqlite.primaryKey({ columns });
        const built = (extra.kind === "index" ? sqlite.index : sqlite.uniqueIndex)(extra.name).on(...columns);
        return extra.notNull ? built.where(isNotNull(columnOf(spec, extra.notNull, self))) : built;
      }),
    );
  });
}

/** Every table of a module of descriptions, as PostgreSQL tables under the same names. */
export function pgTables<M extends Record<string, TableSpec>>(specs: M): { [K in keyof M]: PgTableOf<M[K]> } {
  return mapTables(specs, (spec) => {
    const builders = Object.fromEntries(Object.entries(spec.columns).map(([key, c]) => [key, c.pg()]));
    return pg.pgTable(spec.name, builders, (self) =>
      spec.extras(spec.columns).map((extra) => {
        const columns = columnsOf(spec, extra, self);
        if (extra.kind === "primaryKey") return pg.primaryKey({ columns });
        const built = (extra.kind === "index" ? pg.index : pg.uniqueIndex)(extra.name).on(...columns);
        return extra.notNull ? built.where(isNotNull(columnOf(spec, extra.notNull, self))) : built;
      }),
    );
  });
}

function mapTables<M extends Record<string, TableSpec>, R>(specs: M, build: (spec: TableSpec) => unknown): R {
  return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, build(spec)])) as R;
}

/** The built table's columns an index or key names, found by the key of their description. */
function columnsOf<T>(spec: TableSpec, extra: TableExtra, self: Record<string, T>): [T, ...T[]] {
  return extra.columns.map((c) => columnOf(spec, c, self)) as [T, ...T[]];
}

function columnOf<T>(spec: TableSpec, column: KitColumn, self: Record<string, T>): T {
  const key = Object.entries(spec.columns).find(([, c]) => c === column)?.[0];
  return self[key!]!;
}
