import { describe, expect, test } from "bun:test";
import type { FilterRule, FilterRules, ObservedGeneration } from "../../../src/observability/contract";
import { NUMBER_FIELDS, STRING_FIELDS } from "../../../src/observability/pipeline/filter-fields";
import { compileFilter, FILTER_OPERATORS, filterRulesProblem } from "../../../src/observability/pipeline/filter-rules";
import { observed } from "./observed-fixture";

const one = (rule: FilterRule, g: ObservedGeneration = observed()) => compileFilter({ groups: [{ rules: [rule] }] })(g);

/** A generation with none of the optional fields: no session, user, key name, finish reason, content or tokens. */
const bare = observed({
  sessionId: null,
  externalUser: null,
  keyName: null,
  finishReason: null,
  input: null,
  output: null,
  providerSlug: null,
  providerName: null,
  tokens: { prompt: null, completion: null, cached: null, cacheWrite: null, reasoning: null },
});

// the value each string field holds in observed(): [field, value]
const STRING_VALUES: Array<[string, string]> = [
  ["model", "openai/gpt-4o"],
  ["provider", "openai"],
  ["session_id", "sess-1"],
  ["user_id", "end-user-7"],
  ["api_key_name", "Prod Key"],
  ["finish_reason", "stop"],
  ["input", "Be brief.\nWhat is 2+2?"],
  ["output", "4"],
];
// observed(): total_cost 0.0025, prompt 100, completion 20, total 120
const NUMBER_VALUES: Array<[string, number]> = [
  ["total_cost", 0.0025],
  ["prompt_tokens", 100],
  ["completion_tokens", 20],
  ["total_tokens", 120],
];

describe("every operator on every string field", () => {
  for (const [field, value] of STRING_VALUES) {
    const head = value.slice(0, 3);
    const tail = value.slice(-1);
    const rows: Array<[string, FilterRule["value"], boolean]> = [
      ["equals", value, true],
      ["equals", value.toUpperCase() === value ? `${value.toLowerCase()}x` : value.toUpperCase(), false],
      ["not_equals", value, false],
      ["not_equals", "something else", true],
      ["contains", value.slice(1, 3), true],
      ["contains", "zzz-absent", false],
      ["not_contains", "zzz-absent", true],
      ["not_contains", value.slice(0, 1), false],
      ["starts_with", head, true],
      ["starts_with", "zzz", false],
      ["ends_with", tail, true],
      ["ends_with", "zzz", false],
      ["regex", `^${head.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}`, true],
      ["regex", "^zzz", false],
      ["exists", undefined, true],
      ["not_exists", undefined, false],
      // numeric operators do not apply to text
      ["gt", 0, false],
      ["lt", 1e9, false],
      ["gte", 0, false],
      ["lte", 1e9, false],
    ];
    for (const [operator, v, expected] of rows)
      test(`${field} ${operator} ${JSON.stringify(v)} → ${expected}`, () => expect(one({ field, operator, value: v })).toBe(expected));
    if (field === "model") continue; // every generation has a model
    test(`${field} missing: only not_exists matches`, () => {
      for (const operator of FILTER_OPERATORS) {
        // exists and not_exists take no value (a rule with one is refused when saved)
        const rule: FilterRule =
          operator === "exists" || operator === "not_exists"
            ? { field, operator }
            : { field, operator, value: operator === "gt" || operator === "lt" ? 0 : value };
        expect(one(rule, bare)).toBe(operator === "not_exists");
      }
    });
  }
});

describe("every operator on every numeric field", () => {
  for (const [field, n] of NUMBER_VALUES) {
    const rows: Array<[string, FilterRule["value"], boolean]> = [
      ["equals", n, true],
      ["equals", String(n), true], // numeric comparison, not text
      ["equals", n + 1, false],
      ["not_equals", n, false],
      ["not_equals", n * 2, true],
      ["gt", n / 2, true],
      ["gt", n, false],
      ["gte", n, true],
      ["gte", n * 2, false],
      ["lt", n * 2, true],
      ["lt", n, false],
      ["lte", n, true],
      ["lte", n / 2, false],
      ["exists", undefined, true],
      ["not_exists", undefined, false],
      // text operators do not apply to numbers
      ["contains", String(n).slice(0, 1), false],
      ["not_contains", "x", false],
      ["starts_with", String(n).slice(0, 1), false],
      ["ends_with", String(n).slice(-1), false],
      ["regex", ".", false],
      ["equals", "not a number", false],
    ];
    for (const [operator, v, expected] of rows)
      test(`${field} ${operator} ${JSON.stringify(v)} → ${expected}`, () => expect(one({ field, operator, value: v })).toBe(expected));
  }
  test("missing token counts: only not_exists matches; total_cost is always there", () => {
    for (const field of ["prompt_tokens", "completion_tokens", "total_tokens"])
      for (const operator of FILTER_OPERATORS)
        expect(one(operator === "exists" || operator === "not_exists" ? { field, operator } : { field, operator, value: 1 }, bare)).toBe(
          operator === "not_exists",
        );
    expect(one({ field: "total_cost", operator: "exists" }, bare)).toBe(true);
  });
  test("total_tokens counts what there is when one side is missing", () => {
    const g = observed({ tokens: { prompt: 7, completion: null, cached: null, cacheWrite: null, reasoning: null } });
    expect(one({ field: "total_tokens", operator: "equals", value: 7 }, g)).toBe(true);
  });
});

describe("values of the other type", () => {
  test("a number compared with a text field is compared as its decimal text", () => {
    const g = observed({ finishReason: "42" });
    expect(one({ field: "finish_reason", operator: "equals", value: 42 }, g)).toBe(true);
    expect(one({ field: "finish_reason", operator: "equals", value: "42.0" }, g)).toBe(false);
  });
  test("text comparisons are case-sensitive", () => {
    expect(one({ field: "api_key_name", operator: "equals", value: "prod key" })).toBe(false);
    expect(one({ field: "api_key_name", operator: "contains", value: "Prod" })).toBe(true);
    expect(one({ field: "model", operator: "regex", value: "GPT" })).toBe(false);
  });
});

describe("groups and logic", () => {
  const yes: FilterRule = { field: "model", operator: "equals", value: "openai/gpt-4o" };
  const no: FilterRule = { field: "model", operator: "equals", value: "other" };
  const cases: Array<[string, FilterRules | null, boolean]> = [
    ["null rules", null, true],
    ["no groups", { groups: [] }, true],
    ["enabled false ignores a failing group", { enabled: false, groups: [{ rules: [no] }] }, true],
    ["and (default): all must hold", { groups: [{ rules: [yes, no] }] }, false],
    ["and explicit, all hold", { groups: [{ logic: "and", rules: [yes, yes] }] }, true],
    ["or: one is enough", { groups: [{ logic: "or", rules: [no, yes] }] }, true],
    ["or: none holds", { groups: [{ logic: "or", rules: [no, no] }] }, false],
    ["groups are OR-ed", { groups: [{ rules: [no] }, { rules: [yes] }] }, true],
    ["every group fails", { groups: [{ rules: [yes, no] }, { logic: "or", rules: [no] }] }, false],
    ["unknown field never matches", { groups: [{ rules: [{ field: "colour", operator: "exists" }] }] }, false],
    ["unknown operator never matches", { groups: [{ rules: [{ field: "model", operator: "like", value: "x" }] }] }, false],
  ];
  for (const [name, rules, expected] of cases) test(name, () => expect(compileFilter(rules)(observed())).toBe(expected));
});

describe("regex", () => {
  test("a pattern over 512 characters is refused and never matches", () => {
    const long = "a".repeat(513);
    expect(filterRulesProblem({ groups: [{ rules: [{ field: "output", operator: "regex", value: long }] }] })).toContain("a regex of at most 512 characters");
    expect(one({ field: "output", operator: "regex", value: long }, observed({ output: { text: long, toolCalls: [] } }))).toBe(false);
    expect(one({ field: "output", operator: "regex", value: "a".repeat(512) }, observed({ output: { text: long, toolCalls: [] } }))).toBe(true);
  });
  test("only the first 64 KiB of the subject are searched", () => {
    const text = `${"x".repeat(64 * 1024)}NEEDLE`;
    expect(one({ field: "output", operator: "regex", value: "NEEDLE" }, observed({ output: { text, toolCalls: [] } }))).toBe(false);
    expect(one({ field: "output", operator: "contains", value: "NEEDLE" }, observed({ output: { text, toolCalls: [] } }))).toBe(true);
  });
  test("pathological patterns over a 64 KiB subject do not stall", () => {
    const text = `${"a".repeat(60_000)}!`;
    for (const pattern of ["^(a+)+$", "(a|a)*b", "a*a*a*a*a*b", "(.*a){12}b", "^(\\w+\\s?)*$"]) {
      const started = performance.now();
      expect(one({ field: "output", operator: "regex", value: pattern }, observed({ output: { text, toolCalls: [] } }))).toBe(false);
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });
  test("backreferences and lookaround are refused when saved", () => {
    for (const pattern of ["(a)\\1", "(?=a)", "a(?!b)", "(?<=a)b", "(?<!a)b"])
      expect(filterRulesProblem({ groups: [{ rules: [{ field: "input", operator: "regex", value: pattern }] }] })).toContain("not supported");
  });
});

describe("filterRulesProblem", () => {
  const problem = (rule: FilterRule) => filterRulesProblem({ groups: [{ rules: [rule] }] });
  test("every field with exists is fine", () => {
    for (const field of [...STRING_FIELDS, ...NUMBER_FIELDS]) expect(problem({ field, operator: "exists" })).toBeNull();
  });
  test("names the rule and what is wrong", () => {
    expect(problem({ field: "model", operator: "gt", value: 1 })).toBe("filter_rules.groups[0].rules[0]: operator 'gt' applies to numeric fields, not 'model'");
    expect(problem({ field: "total_cost", operator: "contains", value: "1" })).toBe(
      "filter_rules.groups[0].rules[0]: operator 'contains' applies to text fields, not 'total_cost'",
    );
    expect(problem({ field: "total_cost", operator: "gt", value: "cheap" })).toContain("must be a number");
    expect(problem({ field: "model", operator: "equals" })).toContain("needs a value");
    expect(problem({ field: "colour", operator: "exists" })).toContain("unknown field");
    expect(problem({ field: "model", operator: "regex", value: "(" })).toContain("not a valid regular expression");
  });
});
