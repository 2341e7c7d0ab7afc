import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dialects, generatedIndexPath, journalEntries, renderMigrationIndex } from "../../scripts/embed-migrations";

for (const dialect of dialects) {
  test(`the embedded ${dialect.folder} migration index matches migrations/${dialect.folder}/meta/_journal.json`, () => {
    const entries = journalEntries(dialect);
    expect(entries.length).toBeGreaterThan(0);
    expect(readFileSync(generatedIndexPath(dialect), "utf8")).toBe(renderMigrationIndex(dialect, entries));
  });
}
