// The import graph of src/: which source file imports which, read with Bun's own scanner.

import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { Glob } from "bun";

/** file -> the files it imports, both as paths relative to the repository root ("src/app.ts") */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

const SOURCE = /\.tsx?$/;

// Bun's scanner leaves out imports that bring in types only (`import type`, `import { type A }`,
// `export type { A } from`): the transpiled code does not load them. A type is a dependency all the
// same, so these rewrites turn them into value imports before the scan.
const TYPE_ONLY: ReadonlyArray<[RegExp, string]> = [
  [/\bimport\s+type\s+(?=[\w$*{])/g, "import "],
  [/\bexport\s+type\s+(?=[*{])/g, "export "],
  [/([{,]\s*)type\s+(?=[\w$]+\s*(?:[,}]|as\b))/g, "$1"],
];

const scanners = { ts: new Bun.Transpiler({ loader: "ts" }), tsx: new Bun.Transpiler({ loader: "tsx" }) };

/** Every module specifier of a source file, type-only imports included, in the order the scanner gives them. */
export function importSpecifiers(code: string, loader: "ts" | "tsx"): string[] {
  const asValues = TYPE_ONLY.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), code.replace(/^#!.*/, ""));
  return scanners[loader].scanImports(asValues).map((entry) => entry.path);
}

/** The file a relative specifier names, tried as TypeScript resolves it without an extension; null for a package. */
function resolveSpecifier(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const base = join(dirname(from), specifier);
  const found = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")].find(
    (path) => existsSync(path) && statSync(path).isFile(),
  );
  if (!found) throw new Error(`${from}: cannot resolve "${specifier}"`);
  return found;
}

/**
 * The graph of every .ts and .tsx file under `root`/src. Only imports of source files count:
 * packages, and assets (.json, .css, .sql) that import nothing in turn, are left out.
 */
export function importGraph(root: string): ImportGraph {
  const files = [...new Glob("src/**/*.{ts,tsx}").scanSync({ cwd: root })].sort();
  return new Map(
    files.map((file) => {
      const path = join(root, file);
      const specifiers = importSpecifiers(readFileSync(path, "utf8"), file.endsWith(".tsx") ? "tsx" : "ts");
      const targets = specifiers
        .map((specifier) => resolveSpecifier(path, specifier))
        .filter((target): target is string => target !== null && SOURCE.test(target));
      return [file, [...new Set(targets.map((target) => relative(root, target)))]];
    }),
  );
}

/** Tarjan's strongly connected components of more than one file, or of one that imports itself. */
function tangledComponents(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) components.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return components;
}

/** The shortest way from a file back to itself inside its component (breadth first). */
function shortestCycle(graph: ImportGraph, component: readonly string[]): string[] {
  const start = component[0]!;
  const inside = new Set(component);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i]!;
    for (const next of graph.get(file) ?? []) {
      if (next === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (inside.has(next) && !cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/** One cycle of each tangle of the graph, written "a.ts → b.ts → a.ts"; empty when there is none. */
export function importCycles(graph: ImportGraph): string[] {
  return tangledComponents(graph).map((component) => {
    const cycle = shortestCycle(graph, component).join(" → ");
    return component.length > 2 ? `${cycle} (one of the cycles among ${component.length} files: ${component.join(", ")})` : cycle;
  });
}
