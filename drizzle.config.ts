import { defineConfig } from "drizzle-kit";

/** SQLite migrations; `drizzle.pg.config.ts` generates the PostgreSQL ones. */
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/store/sqlite/schema.ts",
  out: "./migrations/sqlite",
});
