// The structure of src/: no import cycle, and no file importing from a layer above its own. The
// layers are the table under "Layers" in docs/architecture.md; type-only imports count.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { importCycles, importGraph, importSpecifiers } from "../support/import-graph";
import { type Layer, layerViolations, lifecycleViolations, parseLayers, tableProblems } from "../support/layer-rules";

const ROOT = join(import.meta.dir, "../..");
const graph = importGraph(ROOT);
const architecture = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");

describe("src/", () => {
  test("the graph is read, type-only imports included", () => {
    expect(graph.get("src/cli/run.ts")).toContain("src/server.ts");
    // `import type { LogLevel } from "./config"`: its only import, and one Bun's scanner alone leaves out
    expect(graph.get("src/logger.ts")).toEqual(["src/config.ts"]);
    // its JSON data is an asset, not a source file
    expect(graph.get("src/catalog/default-catalog.ts")).toEqual(["src/catalog/default-catalog-data.ts"]);
  });

  test("has no import cycle", () => {
    expect(importCycles(graph)).toEqual([]);
  });

  test("every file is in a layer of docs/architecture.md, and every path there holds a file", () => {
    const layers = parseLayers(architecture);
    expect(layers.length).toBeGreaterThan(1);
    expect(tableProblems(layers, [...graph.keys()])).toEqual([]);
  });

  test("no file imports from a layer above its own", () => {
    expect(layerViolations(graph, parseLayers(architecture))).toEqual([]);
  });

  test("operations reach billing, the fallback loop and the record only through the generation lifecycle", () => {
    expect(lifecycleViolations(graph)).toEqual([]);
  });
});

describe("the lifecycle rule", () => {
  test("an operation importing the record or the fallback loop is named", () => {
    const g = new Map([
      ["src/modules/embeddings/service.ts", ["src/gateway/generation.ts", "src/gateway/record.ts"]],
      ["src/gateway/generation.ts", ["src/gateway/record.ts", "src/gateway/fallback.ts"]],
    ]);
    expect(lifecycleViolations(g)).toEqual([
      "src/modules/embeddings/service.ts imports src/gateway/record.ts: an operation uses the generation lifecycle (src/gateway/generation.ts), not its parts",
    ]);
  });
});

describe("the checks", () => {
  test("every kind of import is a specifier, type-only ones too", () => {
    const code = [
      `import { a } from "./a";`,
      `import type { B } from "./b";`,
      `import { type C } from "./c";`,
      `import {\n  type D,\n  type E as F,\n} from "./d";`,
      `export type { G } from "./g";`,
      `export * from "./h";`,
      `export type * from "./i";`,
      `const j = await import("./j");`,
      `import "./k";`,
      `import x, { type L } from "./l";`,
      `const o = { type: "object", x, j, a };`,
      `export type Local = { type: string };`,
    ].join("\n");
    expect(importSpecifiers(code, "ts")).toEqual(["./a", "./b", "./c", "./d", "./g", "./h", "./i", "./j", "./k", "./l"]);
    expect(importSpecifiers(`#!/usr/bin/env bun\nimport { x } from "./x";`, "ts")).toEqual(["./x"]);
    expect(importSpecifiers(`import { h } from "./h";\nexport const C = () => <b>{h}</b>;`, "tsx")).toContain("./h");
  });

  test("a cycle is printed file by file, a tangle of more than two files with its members", () => {
    const tangle = new Map([
      ["src/a.ts", ["src/b.ts"]],
      ["src/b.ts", ["src/a.ts", "src/c.ts"]],
      ["src/c.ts", ["src/d.ts"]],
      ["src/d.ts", ["src/c.ts", "src/e.ts"]],
      ["src/e.ts", ["src/e.ts"]],
      ["src/f.ts", ["src/a.ts"]],
    ]);
    expect(importCycles(tangle).sort()).toEqual(["src/a.ts → src/b.ts → src/a.ts", "src/c.ts → src/d.ts → src/c.ts", "src/e.ts → src/e.ts"]);
    const ring = new Map([
      ["src/a.ts", ["src/b.ts"]],
      ["src/b.ts", ["src/c.ts"]],
      ["src/c.ts", ["src/a.ts"]],
    ]);
    expect(importCycles(ring)).toEqual(["src/a.ts → src/b.ts → src/c.ts → src/a.ts (one of the cycles among 3 files: src/a.ts, src/b.ts, src/c.ts)"]);
  });

  const table = `# Title\n\n## Layers\n\n| # | layer | paths |\n|---|---|---|\n| 1 | base | \`src/errors.ts\`, \`src/lib/\` |\n| 2 | top | \`src/app/\`, \`src/lib/wired.ts\` |\n\n## Next\n\n| 3 | not | \`src/other/\` |\n`;

  test("the table is read row by row, from the bottom layer up, up to the next section", () => {
    expect(parseLayers(table)).toEqual<Layer[]>([
      { rank: 1, name: "base", paths: ["src/errors.ts", "src/lib/"] },
      { rank: 2, name: "top", paths: ["src/app/", "src/lib/wired.ts"] },
    ]);
    expect(() => parseLayers("# Title\n")).toThrow('no "## Layers" section');
  });

  test("an import from a higher layer is named with both layers; a file listed on its own leaves its folder's layer", () => {
    const layers = parseLayers(table);
    const graph = new Map([
      ["src/errors.ts", []],
      ["src/lib/util.ts", ["src/errors.ts", "src/app/main.ts"]],
      ["src/lib/wired.ts", ["src/app/main.ts"]],
      ["src/app/main.ts", ["src/lib/util.ts"]],
    ]);
    expect(layerViolations(graph, layers)).toEqual([
      "src/lib/util.ts (1 base) imports src/app/main.ts (2 top): a file imports only from its own layer and the ones below",
    ]);
    expect(tableProblems(layers, [...graph.keys(), "src/stray.ts"])).toEqual(["src/stray.ts is in no layer"]);
    expect(tableProblems(layers, ["src/errors.ts", "src/lib/util.ts", "src/lib/wired.ts"])).toEqual(["src/app/ holds no source file"]);
  });
});
