import { type AssertKind, type CharSet, isWordUnit, type RegexNode, RegexSyntaxError } from "./regex-syntax";

/**
 * A parsed regex as a Thompson automaton, run as a set of states over the subject (a Pike VM
 * without captures): each code unit of the subject is looked at once per state, so a match costs
 * at most (instructions × subject length) steps whatever the pattern. Nothing backtracks, so no
 * pattern can take exponential (or polynomial) time the way `(a+)+$` or `a*a*a*b` do in
 * JavaScript's engine.
 */

type Inst =
  | { op: "char"; set: CharSet; next: number }
  | { op: "split"; a: number; b: number }
  | { op: "assert"; kind: AssertKind; next: number }
  | { op: "match" };

/** An automaton larger than this is refused: it bounds the work per code unit of the subject. */
export const MAX_INSTRUCTIONS = 1000;

/**
 * The most state moves one match may take (about 0.3 s on the 2-core reference machine). Only
 * large automata over long subjects reach it (`[a-z]{0,100}y` over 64 KiB of letters does; `(a+)+$`
 * takes a few percent of it); a match that runs out counts as no match, so the rule fails instead
 * of the worker stalling.
 */
export const MAX_STEPS = 16_000_000;

export type Automaton = Readonly<{ program: readonly Inst[]; start: number }>;

export function compileAutomaton(root: RegexNode): Automaton {
  const program: Inst[] = [{ op: "match" }];
  const push = (inst: Inst): number => {
    if (program.length >= MAX_INSTRUCTIONS) throw new RegexSyntaxError(`the pattern is too complex (more than ${MAX_INSTRUCTIONS} automaton states)`);
    program.push(inst);
    return program.length - 1;
  };
  /** compiles `node` to run before `next`; returns its first instruction */
  const emit = (node: RegexNode, next: number): number => {
    switch (node.t) {
      case "char":
        return push({ op: "char", set: node.set, next });
      case "assert":
        return push({ op: "assert", kind: node.kind, next });
      case "seq":
        return node.items.reduceRight((after, item) => emit(item, after), next);
      case "alt": {
        const starts = node.options.map((o) => emit(o, next));
        return starts.reduceRight((b, a) => push({ op: "split", a, b }));
      }
      case "repeat": {
        let start = next;
        if (node.max === Infinity) {
          const loop = push({ op: "split", a: -1, b: next });
          (program[loop] as { a: number }).a = emit(node.node, loop);
          start = loop;
        } else for (let i = node.min; i < node.max; i++) start = push({ op: "split", a: emit(node.node, start), b: next });
        for (let i = 0; i < node.min; i++) start = emit(node.node, start);
        return start;
      }
    }
  };
  return { program, start: emit(root, 0) };
}

function inSet(set: CharSet, c: number): boolean {
  const { ranges } = set;
  let found = false;
  for (let i = 0; i < ranges.length; i++) {
    const range = ranges[i]!;
    if (c >= range[0] && c <= range[1]) {
      found = true;
      break;
    }
  }
  return found !== set.negated;
}

function holds(kind: AssertKind, subject: string, pos: number): boolean {
  switch (kind) {
    case "start":
      return pos === 0;
    case "end":
      return pos === subject.length;
    default: {
      const before = pos > 0 && isWordUnit(subject.charCodeAt(pos - 1));
      const after = pos < subject.length && isWordUnit(subject.charCodeAt(pos));
      return (before !== after) === (kind === "word-boundary");
    }
  }
}

/** Whether the automaton matches anywhere in `subject` (RegExp.prototype.test without flags); false past `maxSteps`. */
export function automatonMatches(automaton: Automaton, subject: string, maxSteps = MAX_STEPS): boolean {
  let steps = 0;
  const { program, start } = automaton;
  // marks[pc] = the position whose state list already holds pc (+1, so 0 means never)
  const marks = new Int32Array(program.length);
  let current = new Int32Array(program.length);
  let next = new Int32Array(program.length);
  let currentSize = 0;
  let nextSize = 0;
  const stack = new Int32Array(program.length);
  /** follows the empty moves from pc at `pos` into `list`; -1 when the match state is reached, else the list's new size */
  const add = (list: Int32Array, size: number, pc: number, pos: number): number => {
    let depth = 0;
    stack[depth++] = pc;
    while (depth > 0) {
      const at = stack[--depth]!;
      if (marks[at] === pos + 1) continue;
      marks[at] = pos + 1;
      const inst = program[at]!;
      switch (inst.op) {
        case "match":
          return -1;
        case "char":
          list[size++] = at;
          break;
        case "split":
          stack[depth++] = inst.b;
          stack[depth++] = inst.a;
          break;
        case "assert":
          if (holds(inst.kind, subject, pos)) stack[depth++] = inst.next;
      }
    }
    return size;
  };
  for (let pos = 0; ; pos++) {
    // a match may start at any position
    currentSize = add(current, currentSize, start, pos);
    if (currentSize < 0) return true;
    if (pos === subject.length) return false;
    const c = subject.charCodeAt(pos);
    nextSize = 0;
    steps += currentSize;
    if (steps > maxSteps) return false;
    for (let i = 0; i < currentSize; i++) {
      const inst = program[current[i]!] as Extract<Inst, { op: "char" }>;
      if (!inSet(inst.set, c)) continue;
      nextSize = add(next, nextSize, inst.next, pos + 1);
      if (nextSize < 0) return true;
    }
    [current, next] = [next, current];
    currentSize = nextSize;
  }
}
