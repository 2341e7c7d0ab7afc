// Reference text written by hand drifts: every file or folder the documentation names must exist.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const DOCS = ["README.md", ...[...new Bun.Glob("docs/**/*.md").scanSync(ROOT)].sort(), "bench/README.md"];
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

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors a Markdown file's headings make (outside code blocks); a repeated one gets -1, -2, … as GitHub numbers it. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "");
  for (const m of prose.matchAll(/^#{1,6} +(.+)$/gm)) {
    const base = headingAnchor(m[1]!.replace(/`/g, ""));
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Relative link targets `[text](target)` outside code blocks: no scheme, no site-absolute path. */
export function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith("/"));
}

test("anchors and relative links are read as GitHub renders them", () => {
  expect([...anchorsOf("# Model Gateway\n## `gateway.yaml`\n```\n# not a heading\n```\n## Set-up\n## Set-up")]).toEqual([
    "model-gateway",
    "gatewayyaml",
    "set-up",
    "set-up-1",
  ]);
  expect(relativeLinks("[a](docs/x.md#y) [b](https://e.com) [c](#z) `[d](no.md)`")).toEqual(["docs/x.md#y", "#z"]);
});

const MARKDOWN = ["README.md", ...[...new Bun.Glob("docs/**/*.md").scanSync(ROOT)].sort()];

test.each(MARKDOWN)("every relative link in %s points at a file and anchor that exist", (doc) => {
  const broken = relativeLinks(readFileSync(join(ROOT, doc), "utf8")).filter((target) => {
    const [path, anchor] = target.split("#") as [string, string | undefined];
    const file = path ? join(ROOT, dirname(doc), decodeURIComponent(path)) : join(ROOT, doc);
    if (!existsSync(file)) return true;
    return anchor !== undefined && file.endsWith(".md") && !anchorsOf(readFileSync(file, "utf8")).has(anchor);
  });
  expect(broken).toEqual([]);
});
