/**
 * The column kit: a table is described once (./accounts.ts, ./money.ts, ...) and each dialect
 * builds it with its own drizzle core (./build.ts). A `Column` holds both recipes, SQLite's and
 * PostgreSQL's, and carries both builder types, so every dialect's table keeps the exact types
 * drizzle gives a table written by hand. What differs between the dialects is said here, once per
 * kind of column: booleans are integers 0/1 on SQLite; times and money are int8 on PostgreSQL,
 * read back as JS numbers, and SQLite integers (64-bit) already.
 */
import type { ColumnBuilder, HasDefault, IsPrimaryKey, NotNull } from "drizzle-orm";
import * as pg from "drizzle-orm/pg-core";
import * as sqlite from "drizzle-orm/sqlite-core";

export class Column<S extends sqlite.SQLiteColumnBuilderBase, P extends pg.PgColumnBuilderBase> {
  /** each recipe makes a fresh builder: a drizzle builder belongs to the one table built with it */
  constructor(
    readonly sqlite: () => S,
    readonly pg: () => P,
  ) {}

  notNull(): Column<NotNull<S>, NotNull<P>> {
    return this.modified((b) => b.notNull());
  }

  default(value: S["_"]["data"] & P["_"]["data"]): Column<HasDefault<S>, HasDefault<P>> {
    return this.modified((b) => b.default(value));
  }

  /** the only kind of key both dialects share: not an integer, so neither one makes it a rowid or serial */
  primaryKey(): Column<IsPrimaryKey<NotNull<S>>, IsPrimaryKey<NotNull<P>>> {
    return this.modified((b) => b.primaryKey());
  }

  /** the same drizzle modifier on both recipes; the signatures above say what it makes of each type */
  private modified<S2 extends sqlite.SQLiteColumnBuilderBase, P2 extends pg.PgColumnBuilderBase>(
    modify: (builder: ColumnBuilder) => ColumnBuilder,
  ): Column<S2, P2> {
    return new Column(
      () => modify(this.sqlite() as unknown as ColumnBuilder) as unknown as S2,
      () => modify(this.pg() as unknown as ColumnBuilder) as unknown as P2,
    );
  }
}

/** A column only PostgreSQL has, built as given. */
export class PgOnlyColumn<P extends pg.PgColumnBuilderBase> {
  constructor(readonly pg: () => P) {}
}

/**
 * The order rows were inserted in, for lists that keep it: SQLite has it as the rowid, so only
 * PostgreSQL, which has no such column, gets one (an identity). A write that only updates a row
 * keeps its place.
 */
export const insertionOrder = <N extends string>(name: N) => new PgOnlyColumn(() => pg.bigint(name, { mode: "number" }).notNull().generatedAlwaysAsIdentity());

/** Text; with `enum`, typed as one of its values (neither dialect checks them). */
export const text = <N extends string, U extends string, E extends Readonly<[U, ...U[]]>>(name: N, config?: { enum: E }) =>
  new Column(
    () => sqlite.text(name, config),
    () => pg.text(name, config),
  );

/** A 32-bit integer on PostgreSQL: versions, positions, token counts of one generation. */
export const integer = <N extends string>(name: N) =>
  new Column(
    () => sqlite.integer(name),
    () => pg.integer(name),
  );

export const boolean = <N extends string>(name: N) =>
  new Column(
    () => sqlite.integer(name, { mode: "boolean" }),
    () => pg.boolean(name),
  );

/** A 64-bit integer read back as a JS number (exact up to 2^53). */
export const int8 = <N extends string>(name: N) =>
  new Column(
    () => sqlite.integer(name),
    () => pg.bigint(name, { mode: "number" }),
  );

/** Epoch milliseconds. */
export const millis = int8;

/** Money in nano-dollars (1e-9 USD). */
export const nanos = int8;

export const double = <N extends string>(name: N) =>
  new Column(
    () => sqlite.real(name),
    () => pg.doublePrecision(name),
  );

export type KitColumn = Column<sqlite.SQLiteColumnBuilderBase, pg.PgColumnBuilderBase> | PgOnlyColumn<pg.PgColumnBuilderBase>;

/**
 * An index, unique index or composite primary key, over columns of the table it is declared with.
 * `notNull`: a partial index of the rows where that column is set (a rare value stays cheap to find).
 */
export type TableExtra =
  | { kind: "index" | "uniqueIndex"; name: string; columns: KitColumn[]; notNull?: KitColumn }
  | { kind: "primaryKey"; columns: KitColumn[] };

export const index = (name: string) => ({
  on: (...columns: [KitColumn, ...KitColumn[]]) => ({
    kind: "index" as const,
    name,
    columns,
    /** only the rows where `column` is not null */
    whereNotNull: (column: KitColumn): TableExtra => ({ kind: "index", name, columns, notNull: column }),
  }),
});
export const uniqueIndex = (name: string) => ({ on: (...columns: [KitColumn, ...KitColumn[]]): TableExtra => ({ kind: "uniqueIndex", name, columns }) });
export const primaryKey = (config: { columns: [KitColumn, ...KitColumn[]] }): TableExtra => ({ kind: "primaryKey", columns: config.columns });

export type TableSpec<N extends string = string, C extends Record<string, KitColumn> = Record<string, KitColumn>> = {
  name: N;
  columns: C;
  /** a method, so that a table of particular columns is still a TableSpec */
  extras(columns: C): TableExtra[];
};

/** A table of both dialects, in drizzle's words: a name, its columns, then its indexes and keys. */
export const table = <N extends string, C extends Record<string, KitColumn>>(
  name: N,
  columns: C,
  extras: (columns: C) => TableExtra[] = () => [],
): TableSpec<N, C> => ({
  name,
  columns,
  extras,
});
