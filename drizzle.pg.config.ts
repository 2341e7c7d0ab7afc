import { defineConfig } from "drizzle-kit";

/** PostgreSQL migrations; `drizzle.config.ts` generates the SQLite ones. */
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/store/pg/schema.ts",
  out: "./migrations/pg",
});
