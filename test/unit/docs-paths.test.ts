// Reference text written by hand drifts: every file or folder the documentation names must exist.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const DOCS = ["README.md", "docs/architecture.md", "docs/contributing.md", "bench/README.md"];
/** made by test runs or by the reader (deploy/.env holds their secrets), never committed */
const NOT_COMMITTED = ["test/artifacts/", "deploy/.env"];

/** Paths in backticks or links that start at a top-level folder of the repository; placeholders (`<name>`, `*`) are skipped. */
export function namedPaths(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/(?:`|\()((?:src|test|docs|deploy|scripts|bench|migrations)\/[A-Za-z0-9_./<>*{}-]*)/g)) {
    const path = m[1]!.replace(/[.,:;]+$/, "");
    if (/[<>*{}]/.test(path)) continue;
    found.add(path);
  }
  return [...found];
}

test("the paths the docs name are found", () => {
  expect(namedPaths("see `src/app.ts`, (src/x/) and `src/<format>/index.ts` or `test/unit/a.test.ts:12`")).toEqual([
    "src/app.ts",
    "src/x/",
    "test/unit/a.test.ts",
  ]);
});

test.each(DOCS)("every path %s names exists", (doc) => {
  const text = readFileSync(join(ROOT, doc), "utf8");
  const missing = namedPaths(text).filter((p) => !NOT_COMMITTED.includes(p) && !existsSync(join(ROOT, p)));
  expect(missing).toEqual([]);
});
