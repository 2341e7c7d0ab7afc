import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { compileBoundedRegex, MAX_SUBJECT_LENGTH } from "../../../src/observability/pipeline/bounded-regex";

const compiled = (pattern: string) => {
  const c = compileBoundedRegex(pattern);
  if (!c.ok) throw new Error(`${pattern}: ${c.error}`);
  return c.regex;
};

// patterns JavaScript users write in filters, and the corners of the syntax
const PATTERNS = [
  "^gpt-4",
  "sonnet$",
  "claude-.*-sonnet",
  "a|b|cd",
  "(foo|bar)+baz",
  "colou?r",
  "x{2,3}y",
  "x{2}",
  "x{2,}",
  "a{,2}",
  "\\d+\\.\\d{2}$",
  "[\\w-]+@[a-z]+\\.com",
  "[^a-c]x",
  "[a\\-z]",
  "[-a]",
  "[a-]",
  "[]a",
  "[^]",
  "\\bfoo\\b",
  "\\Bo\\B",
  "^$",
  ".",
  "\\s+",
  "\\S\\D\\W",
  "\\x41\\u0042",
  "\\t\\n\\r",
  "(?:ab)*c",
  "(?<word>x)y",
  "[\\d.]+",
  "[\\b]",
  "\\.",
  "\\/",
  "a*?b",
  "a+?",
  "(a|)+b",
  "()",
  "(|a)",
  "\\cJ",
  "[a-\\d]",
  "\\0",
  "{",
  "a{1,2",
  "}",
  "]",
  "\\p",
  "\\q",
];
const SUBJECTS = [
  "",
  "a",
  "b",
  "gpt-4o",
  "xgpt-4",
  "claude-3-5-sonnet",
  "foobarbaz",
  "color",
  "colour",
  "xxy",
  "xxxxy",
  "a{,2}",
  "1.23",
  "1.234",
  "a-b@ex.com",
  "dx",
  "ax",
  "-",
  "z",
  "a foo b",
  "afoo",
  "foo",
  "hello",
  "\n",
  "AB",
  "\t\n\r",
  "ababc",
  "xy",
  "3.14",
  "\b",
  "./",
  "aab",
  "{",
  "}",
  "]",
  "p",
  "q",
  "\0",
  "a{1,2",
];

describe("agrees with RegExp", () => {
  for (const pattern of PATTERNS)
    test(pattern, () => {
      const ours = compiled(pattern);
      const js = new RegExp(pattern);
      for (const subject of SUBJECTS) expect([subject, ours.test(subject)]).toEqual([subject, js.test(subject)]);
    });

  test("on generated subjects over a small alphabet", () => {
    const patterns = ["(ab|a)*b$", "^a?b+a*$", "b{2,3}", "\\ba", "a\\B", "(a|b)c?", "[^ab]", "^(a|ab)(c|bcd)"];
    fc.assert(
      fc.property(
        fc.constantFrom(...patterns),
        fc.string({ unit: fc.constantFrom("a", "b", "c", "d", " ") }),
        (pattern, subject) => compiled(pattern).test(subject) === new RegExp(pattern).test(subject),
      ),
      { numRuns: 2000 },
    );
  });
});

describe("refused", () => {
  const cases: Array<[string, string]> = [
    ["(a)\\1", "backreferences"],
    ["(?<n>a)\\k<n>", "backreferences"],
    ["(?=a)", "lookahead"],
    ["(?<!a)b", "lookahead"],
    ["a**", "nothing to repeat"],
    ["(", "missing )"],
    ["x{101}", "above 100"],
    ["(.{0,99}x){6}", "too complex"],
    ["a".repeat(513), "longer than 512"],
  ];
  for (const [pattern, error] of cases)
    test(pattern.slice(0, 24), () => expect(compileBoundedRegex(pattern)).toEqual({ ok: false, error: expect.stringContaining(error) }));
});

test("the subject is cut at 64 KiB", () => {
  const regex = compiled("b$");
  expect(regex.test(`${"a".repeat(MAX_SUBJECT_LENGTH - 1)}b`)).toBe(true);
  expect(regex.test(`${"a".repeat(MAX_SUBJECT_LENGTH)}b`)).toBe(false);
});

test("catastrophic patterns for a backtracking engine finish quickly", () => {
  const subject = `${"a".repeat(60_000)}!`;
  for (const pattern of ["^(a+)+$", "(a|aa)+$", "(a|a)*b", "a*a*a*a*a*a*b", "(\\w*)*!x", "^(([a-z])+.)+[A-Z]([a-z])+$", "(.{0,99}x)"]) {
    const started = performance.now();
    compiled(pattern).test(subject);
    expect(performance.now() - started).toBeLessThan(1500);
  }
});
