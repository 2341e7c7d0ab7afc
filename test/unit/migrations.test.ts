import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { journalEntries, renderMigrationIndex } from "../../scripts/embed-migrations";

test("the embedded migration index matches migrations/meta/_journal.json", () => {
  const committed = readFileSync(new URL("../../src/store/sqlite/migrations.generated.ts", import.meta.url), "utf8");
  expect(committed).toBe(renderMigrationIndex(journalEntries));
});
