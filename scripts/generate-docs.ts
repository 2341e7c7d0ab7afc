/**
 * Writes the reference pages under docs/reference/ from what they describe, so they cannot drift:
 *   bun scripts/generate-docs.ts           (writes the pages; `bun run docs:generate`)
 *   bun scripts/generate-docs.ts --check   (exit 1 if a page differs from what the sources give)
 * test/unit/docs-generated.test.ts fails when a committed page is stale.
 */
import { join } from "node:path";
import { cliReference } from "./docs/cli-reference";
import { configurationReference } from "./docs/config-reference";
import { errorCodesReference } from "./docs/error-codes";
import { metricsReference } from "./docs/metrics-reference";

export const REFERENCE_DIR = join(import.meta.dir, "../docs/reference");

/** Each generated page's path under docs/reference/ and its text. */
export async function generatedDocs(): Promise<Record<string, string>> {
  return {
    "configuration.md": configurationReference(),
    "cli.md": cliReference(),
    "metrics.md": await metricsReference(),
    "errors.md": errorCodesReference(),
  };
}

if (import.meta.main) {
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const [name, text] of Object.entries(await generatedDocs())) {
    const path = join(REFERENCE_DIR, name);
    const file = Bun.file(path);
    if (check) {
      if (!(await file.exists()) || (await file.text()) !== text) {
        console.error(`stale: docs/reference/${name}`);
        stale++;
      }
    } else await Bun.write(path, text);
  }
  if (stale) process.exit(1);
}
