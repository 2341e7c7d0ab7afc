import { ConfigError } from "./config-error";

type YamlModule = typeof import("yaml");

/**
 * gateway.yaml text as a plain value. Bun.YAML reports no position, and an operator fixing a
 * file needs one: every syntax error is reported at once, each with its line and column.
 */
export function parseYaml(text: string, source: string): unknown {
  // loaded with the first file it reads: a gateway started without gateway.yaml (the README's
  // first run) never holds the parser, about a megabyte of its idle RSS
  const { LineCounter, parseDocument } = require("yaml") as YamlModule;
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0)
    throw new ConfigError(
      doc.errors.map((err) => {
        const { line, col } = lineCounter.linePos(err.pos[0]);
        return { field: `${source} line ${line}, column ${col}`, problem: `invalid YAML: ${err.message}` };
      }),
    );
  return doc.toJS();
}
