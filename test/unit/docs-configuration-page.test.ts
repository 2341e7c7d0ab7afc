// docs/configuration.md keeps a short hand-written table of the most used environment variables;
// the generated reference is the source of truth. Each variable of that table must be in the
// reference, and a default the table states as a literal must be the reference's default, so the
// task page cannot drift from the code the reference is generated from.
import { expect, test } from "bun:test";
import { join } from "node:path";

const root = join(import.meta.dir, "../..");
const read = (path: string) => Bun.file(join(root, path)).text();

/** [name, default cell] of each `| \`NAME\` | default | meaning |` row */
function handRows(page: string): Array<[string, string]> {
  return [...page.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/gm)].map((m) => [m[1]!, m[2]!.trim()]);
}

test("the environment variables of docs/configuration.md are the generated reference's, with its defaults", async () => {
  const [page, reference] = await Promise.all([read("docs/configuration.md"), read("docs/reference/configuration.md")]);
  const rows = handRows(page);
  expect(rows.length).toBeGreaterThan(10);
  const problems: string[] = [];
  for (const [name, cell] of rows) {
    const described = reference.match(new RegExp(`^\\| \`${name}\` \\| (.*)$`, "m"))?.[1];
    if (described === undefined) {
      problems.push(`${name}: not in docs/reference/configuration.md`);
      continue;
    }
    const literal = cell.match(/^`([^`]+)`$/)?.[1];
    if (literal !== undefined && !described.includes(`default ${literal}`)) problems.push(`${name}: the page says ${literal}, the reference: ${described}`);
  }
  expect(problems).toEqual([]);
});
