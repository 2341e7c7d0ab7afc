/**
 * The syntax of filter-rule regexes: JavaScript's (no flags, UTF-16 code units, as `RegExp`
 * without `u` reads them) minus what needs backtracking to match: backreferences and lookaround
 * are refused. What remains compiles to an automaton that runs in linear time (regex-match.ts).
 */

/** Code-unit ranges [lo, hi], inclusive; `negated` matches every unit outside them. */
export type CharSet = Readonly<{ ranges: ReadonlyArray<readonly [number, number]>; negated: boolean }>;

export type AssertKind = "start" | "end" | "word-boundary" | "not-word-boundary";

export type RegexNode =
  | { t: "char"; set: CharSet }
  | { t: "seq"; items: RegexNode[] }
  | { t: "alt"; options: RegexNode[] }
  | { t: "repeat"; node: RegexNode; min: number; max: number }
  | { t: "assert"; kind: AssertKind };

export class RegexSyntaxError extends Error {
  override name = "RegexSyntaxError";
}

const DIGIT: Array<[number, number]> = [[0x30, 0x39]];
const WORD: Array<[number, number]> = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
// JavaScript's \s: WhiteSpace and LineTerminator
const SPACE: Array<[number, number]> = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_TERMINATORS: Array<[number, number]> = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

const set = (ranges: Array<[number, number]>, negated = false): CharSet => ({ ranges, negated });
const unit = (c: number): CharSet => set([[c, c]]);

/** Repetition counts above this are refused: each one is a copy of the repeated part in the automaton. */
export const MAX_REPEAT = 100;

const CLASS_ESCAPES: Record<string, CharSet> = {
  d: set(DIGIT),
  D: set(DIGIT, true),
  w: set(WORD),
  W: set(WORD, true),
  s: set(SPACE),
  S: set(SPACE, true),
};

const CONTROL_ESCAPES: Record<string, number> = { t: 0x09, n: 0x0a, v: 0x0b, f: 0x0c, r: 0x0d };

export function isWordUnit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || (c >= 0x61 && c <= 0x7a);
}

export function parseRegex(pattern: string): RegexNode {
  return new Parser(pattern).parse();
}

class Parser {
  private pos = 0;
  constructor(private readonly src: string) {}

  parse(): RegexNode {
    const node = this.alternation();
    if (this.pos < this.src.length) throw new RegexSyntaxError(`unmatched ')' at ${this.pos}`);
    return node;
  }

  private peek(offset = 0): string | undefined {
    return this.src[this.pos + offset];
  }

  private alternation(): RegexNode {
    const options = [this.sequence()];
    while (this.peek() === "|") {
      this.pos++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { t: "alt", options };
  }

  private sequence(): RegexNode {
    const items: RegexNode[] = [];
    while (this.pos < this.src.length && this.peek() !== "|" && this.peek() !== ")") items.push(this.quantified(this.atom()));
    return { t: "seq", items };
  }

  private quantified(node: RegexNode): RegexNode {
    const q = this.quantifier();
    if (!q) return node;
    if (node.t === "assert") throw new RegexSyntaxError(`nothing to repeat at ${this.pos}`);
    if (this.peek() === "?") this.pos++; // lazy: the same for a yes/no match
    return { t: "repeat", node, min: q.min, max: q.max };
  }

  /** `*`, `+`, `?` or a well-formed `{n}`, `{n,}`, `{n,m}` (any other `{` is a literal, as in JavaScript) */
  private quantifier(): { min: number; max: number } | null {
    const c = this.peek();
    if (c === "*" || c === "+" || c === "?") {
      this.pos++;
      return { min: c === "+" ? 1 : 0, max: c === "?" ? 1 : Infinity };
    }
    if (c !== "{") return null;
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
    if (!m) return null;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
    if (max < min) throw new RegexSyntaxError(`numbers out of order in {} quantifier at ${this.pos}`);
    if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) throw new RegexSyntaxError(`repetition counts above ${MAX_REPEAT} are not supported`);
    this.pos += m[0].length;
    return { min, max };
  }

  private atom(): RegexNode {
    const c = this.src[this.pos++]!;
    switch (c) {
      case "(":
        return this.group();
      case "[":
        return { t: "char", set: this.charClass() };
      case ".":
        return { t: "char", set: set(LINE_TERMINATORS, true) };
      case "^":
        return { t: "assert", kind: "start" };
      case "$":
        return { t: "assert", kind: "end" };
      case "\\":
        return this.escape();
      case "*":
      case "+":
      case "?":
        throw new RegexSyntaxError(`nothing to repeat at ${this.pos - 1}`);
      case "{":
        this.pos--;
        if (this.quantifier()) throw new RegexSyntaxError(`nothing to repeat at ${this.pos}`);
        this.pos++;
        return { t: "char", set: unit(0x7b) };
      default:
        return { t: "char", set: unit(c.charCodeAt(0)) };
    }
  }

  private group(): RegexNode {
    if (this.peek() === "?") {
      const next = this.peek(1);
      if (next === ":") this.pos += 2;
      else if (next === "<" && this.peek(2) !== "=" && this.peek(2) !== "!") {
        const close = this.src.indexOf(">", this.pos);
        if (close < 0) throw new RegexSyntaxError("unterminated group name");
        this.pos = close + 1;
      } else throw new RegexSyntaxError("lookahead and lookbehind are not supported");
    }
    const inner = this.alternation();
    if (this.src[this.pos++] !== ")") throw new RegexSyntaxError("unterminated group");
    return inner;
  }

  private escape(): RegexNode {
    const c = this.src[this.pos++];
    if (c === undefined) throw new RegexSyntaxError("\\ at end of pattern");
    if (c === "b") return { t: "assert", kind: "word-boundary" };
    if (c === "B") return { t: "assert", kind: "not-word-boundary" };
    if (c in CLASS_ESCAPES) return { t: "char", set: CLASS_ESCAPES[c]! };
    return { t: "char", set: unit(this.escapedUnit(c)) };
  }

  /** the code unit of an escape other than a class or an assertion (`c` is the letter after `\`) */
  private escapedUnit(c: string): number {
    if (c in CONTROL_ESCAPES) return CONTROL_ESCAPES[c]!;
    if (c >= "1" && c <= "9") throw new RegexSyntaxError("backreferences are not supported");
    if (c === "k") throw new RegexSyntaxError("backreferences are not supported");
    if (c === "0") {
      if (/[0-9]/.test(this.peek() ?? "")) throw new RegexSyntaxError("octal escapes are not supported");
      return 0;
    }
    if (c === "x" || c === "u") {
      const digits = c === "x" ? 2 : 4;
      const hex = this.src.slice(this.pos, this.pos + digits);
      if (hex.length === digits && /^[0-9a-fA-F]+$/.test(hex)) {
        this.pos += digits;
        return parseInt(hex, 16);
      }
      return c.charCodeAt(0);
    }
    if (c === "c") {
      const letter = this.peek();
      if (letter && /[A-Za-z]/.test(letter)) {
        this.pos++;
        return letter.charCodeAt(0) % 32;
      }
      throw new RegexSyntaxError("\\c must be followed by a letter");
    }
    return c.charCodeAt(0);
  }

  private charClass(): CharSet {
    const negated = this.peek() === "^";
    if (negated) this.pos++;
    const ranges: Array<[number, number]> = [];
    const negatedParts: CharSet[] = [];
    while (this.peek() !== "]") {
      if (this.pos >= this.src.length) throw new RegexSyntaxError("unterminated character class");
      const lo = this.classItem();
      if (typeof lo !== "number") {
        negatedParts.push(lo);
        continue;
      }
      if (this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== undefined) {
        this.pos++;
        const hi = this.classItem();
        if (typeof hi !== "number") {
          // [a-\d]: JavaScript (outside unicode mode) reads the dash as a literal
          ranges.push([lo, lo], [0x2d, 0x2d]);
          negatedParts.push(hi);
          continue;
        }
        if (hi < lo) throw new RegexSyntaxError("range out of order in character class");
        ranges.push([lo, hi]);
      } else ranges.push([lo, lo]);
    }
    this.pos++;
    return mergeSets(ranges, negatedParts, negated);
  }

  /** one unit of a class, or a class escape (\d, \W, ...) */
  private classItem(): number | CharSet {
    const c = this.src[this.pos++]!;
    if (c !== "\\") return c.charCodeAt(0);
    const e = this.src[this.pos++];
    if (e === undefined) throw new RegexSyntaxError("\\ at end of pattern");
    if (e in CLASS_ESCAPES) return CLASS_ESCAPES[e]!;
    if (e === "b") return 0x08;
    if (e === "-") return 0x2d;
    return this.escapedUnit(e);
  }
}

/** A class's plain ranges and class escapes as one set: negated escapes (\D, \W, \S) are turned into ranges. */
function mergeSets(ranges: Array<[number, number]>, parts: CharSet[], negated: boolean): CharSet {
  for (const part of parts) for (const [lo, hi] of part.negated ? complement(part.ranges) : part.ranges) ranges.push([lo, hi]);
  return { ranges, negated };
}

function complement(ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [lo, hi] of sorted) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= 0xffff) out.push([next, 0xffff]);
  return out;
}
