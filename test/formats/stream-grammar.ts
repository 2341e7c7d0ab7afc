import { expect } from "bun:test";
import type { IRStreamPart } from "../../src/ir/types";

/**
 * The IR stream grammar (src/ir/types.ts, IRStreamPart): `start` at most once and first; every
 * block opened with `block-start` before its deltas and closed with `block-end`; at most one block
 * open at a time; indexes counting up from 0 in order of opening; exactly one `finish` or `error`,
 * last, with no block left open. `usage` may come anywhere before the end.
 *
 * Returns what is wrong (empty when the stream is valid), so property tests can report it.
 */
export function grammarViolations(parts: readonly IRStreamPart[]): string[] {
  const problems: string[] = [];
  let open: number | undefined;
  let next = 0;
  let ended = false;
  parts.forEach((part, at) => {
    const where = `part ${at} (${part.type})`;
    if (ended) problems.push(`${where}: after the stream ended`);
    switch (part.type) {
      case "start":
        if (at !== 0) problems.push(`${where}: start is not first`);
        return;
      case "usage":
        return;
      case "finish":
      case "error":
        if (open !== undefined) problems.push(`${where}: block ${open} still open`);
        ended = true;
        return;
      case "block-start":
        if (open !== undefined) problems.push(`${where}: block ${open} still open`);
        if (part.index !== next) problems.push(`${where}: index ${part.index}, expected ${next}`);
        open = part.index;
        next = Math.max(next, part.index) + 1;
        return;
      case "block-end":
        if (part.index !== open) problems.push(`${where}: closes ${part.index}, open is ${open ?? "none"}`);
        open = undefined;
        return;
      default:
        if (part.index !== open) problems.push(`${where}: for block ${part.index}, open is ${open ?? "none"}`);
    }
  });
  if (!ended) problems.push("the stream has no finish or error");
  return problems;
}

export function expectValidStream(parts: readonly IRStreamPart[]): void {
  expect(grammarViolations(parts)).toEqual([]);
}
