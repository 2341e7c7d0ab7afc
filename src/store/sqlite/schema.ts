/**
 * The SQLite schema drizzle-kit reads (drizzle.config.ts): every table, one file per concern
 * under ./tables/. Times are integer milliseconds since the epoch; money is integer nano-dollars
 * (1e-9 USD).
 */
export * from "./tables/accounts";
export * from "./tables/money";
export * from "./tables/presets-responses";
export * from "./tables/jobs";
export * from "./tables/observability";
export * from "./tables/sign-in";
export * from "./tables/generation-contents";
export * from "./tables/observation-outbox";
