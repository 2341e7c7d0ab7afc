// The layer rules of src/, read from their one statement: the table under "## Layers" in
// docs/architecture.md. Its rows go from the bottom layer up; each names its paths in backticks.
import type { ImportGraph } from "./import-graph";

export type Layer = { rank: number; name: string; paths: string[] };

const SECTION = "## Layers";

/** The rows of the table under "## Layers": rank (the row's number, 1 at the bottom), name, and every `src/...` path of the row. */
export function parseLayers(markdown: string): Layer[] {
  const start = markdown.indexOf(`\n${SECTION}\n`);
  if (start < 0) throw new Error(`no "${SECTION}" section`);
  const end = markdown.indexOf("\n## ", start + SECTION.length + 2);
  const rows = markdown
    .slice(start, end < 0 ? undefined : end)
    .split("\n")
    .filter((line) => /^\|\s*\d+\s*\|/.test(line));
  return rows.map((row) => {
    const [rank, name, paths] = row
      .split("|")
      .slice(1, 4)
      .map((cell) => cell.trim());
    return { rank: Number(rank), name: name!, paths: [...paths!.matchAll(/`(src\/[^`]+)`/g)].map((match) => match[1]!) };
  });
}

/** A folder path (ending in "/") holds everything under it; a file path, that file. */
const holds = (path: string, file: string): boolean => (path.endsWith("/") ? file.startsWith(path) : file === path);

/** The layer of a file: the one with the longest path that holds it, so a file or subfolder listed on its own leaves its folder's layer. */
export function layerOf(layers: readonly Layer[], file: string): Layer | undefined {
  let best: { layer: Layer; length: number } | undefined;
  for (const layer of layers)
    for (const path of layer.paths) if (holds(path, file) && path.length > (best?.length ?? -1)) best = { layer, length: path.length };
  return best?.layer;
}

/** What is wrong with the table itself: ranks not 1, 2, 3..., a path listed twice, a path that holds no file, a file in no layer. */
export function tableProblems(layers: readonly Layer[], files: readonly string[]): string[] {
  const problems: string[] = [];
  if (layers.length === 0) problems.push(`the "${SECTION}" table has no rows`);
  layers.forEach((layer, i) => {
    if (layer.rank !== i + 1) problems.push(`row ${i + 1} is numbered ${layer.rank}`);
    if (layer.paths.length === 0) problems.push(`layer ${layer.name} lists no path`);
  });
  const listed = layers.flatMap((layer) => layer.paths);
  for (const path of new Set(listed.filter((path, i) => listed.indexOf(path) !== i))) problems.push(`${path} is listed twice`);
  for (const path of listed) if (!files.some((file) => holds(path, file))) problems.push(`${path} holds no source file`);
  for (const file of files) if (!layerOf(layers, file)) problems.push(`${file} is in no layer`);
  return problems;
}

/** Every import of a file from a higher layer than its own, as "importer (layer) imports imported (layer)". */
export function layerViolations(graph: ImportGraph, layers: readonly Layer[]): string[] {
  const violations: string[] = [];
  for (const [file, imports] of graph) {
    const own = layerOf(layers, file);
    if (!own) continue;
    for (const imported of imports) {
      const theirs = layerOf(layers, imported);
      if (theirs && theirs.rank > own.rank)
        violations.push(
          `${file} (${own.rank} ${own.name}) imports ${imported} (${theirs.rank} ${theirs.name}): a file imports only from its own layer and the ones below`,
        );
    }
  }
  return violations;
}

/**
 * The generation lifecycle's own parts: only the lifecycle (its envelope and these parts) and the
 * composition root may import them, so no operation re-derives admission, fallback, cost or the record.
 */
export const LIFECYCLE_PARTS = [
  "src/gateway/record.ts",
  "src/gateway/fallback.ts",
  "src/gateway/charge.ts",
  "src/gateway/generation-writer.ts",
  "src/billing/admission.ts",
  "src/billing/rate-limit.ts",
];
export const LIFECYCLE_OWNERS = [
  "src/gateway/generation.ts",
  "src/gateway/generation-job.ts",
  "src/gateway/generation-record.ts",
  ...LIFECYCLE_PARTS,
  "src/billing/reservation-leases.ts",
  "src/app-context.ts",
  "src/server.ts",
];

/** Imports of a lifecycle part from outside the lifecycle. */
export function lifecycleViolations(graph: ReadonlyMap<string, readonly string[]>, parts = LIFECYCLE_PARTS, owners = LIFECYCLE_OWNERS): string[] {
  const out: string[] = [];
  for (const [file, imports] of graph)
    for (const target of imports)
      if (parts.includes(target) && !owners.includes(file))
        out.push(`${file} imports ${target}: an operation uses the generation lifecycle (src/gateway/generation.ts), not its parts`);
  return out;
}
