/**
 * The PostgreSQL schema drizzle-kit reads (drizzle.pg.config.ts), one file per concern under
 * ./tables/: the twin of `../sqlite/schema.ts`, the same tables and column names. Times are
 * milliseconds since the epoch and money nano-dollars, both `bigint` (int8) read back as JS
 * numbers; JSON-bearing columns stay `text` so values round-trip byte-exactly, as on SQLite.
 *
 * One difference: SQLite orders some lists by `rowid` (insertion order); PostgreSQL has no such
 * column, so the tables that need it carry an explicit identity column `seq`
 * (`workspace_members`, `preset_versions`).
 */
export * from "./tables/accounts";
export * from "./tables/money";
export * from "./tables/presets-responses";
export * from "./tables/jobs";
export * from "./tables/observability";
export * from "./tables/sign-in";
export * from "./tables/generation-contents";
export * from "./tables/observation-outbox";
