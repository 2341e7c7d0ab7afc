import type { FilterRule, FilterRules, ObservedGeneration } from "../contract";
import { oncePer } from "../once-per";
import { type BoundedRegex, compileBoundedRegex, MAX_PATTERN_LENGTH } from "./bounded-regex";
import { isNumberField, isStringField, type NumberField, numberField, type StringField, stringField } from "./filter-fields";

export const FILTER_OPERATORS = [
  "equals",
  "not_equals",
  "contains",
  "not_contains",
  "regex",
  "starts_with",
  "ends_with",
  "gt",
  "lt",
  "gte",
  "lte",
  "exists",
  "not_exists",
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

const STRING_ONLY = new Set<string>(["contains", "not_contains", "regex", "starts_with", "ends_with"]);
const NUMBER_ONLY = new Set<string>(["gt", "lt", "gte", "lte"]);

/** Whether a generation passes a destination's rules. */
export type GenerationFilter = (g: ObservedGeneration) => boolean;

type RuleTest = (g: ObservedGeneration) => boolean;

/**
 * Our semantics of the contract's filter rules (OpenRouter publishes the schema only):
 * - `enabled: false`, or no groups: everything passes.
 * - Groups are OR-ed; the rules of a group are AND-ed, or OR-ed with `logic: "or"`.
 * - String operators compare case-sensitively on the raw value; `regex` is JavaScript syntax
 *   without flags, matched in bounded time (bounded-regex.ts) on the first 64 KiB.
 * - `equals`/`not_equals` on a numeric field compare numbers (`"0.5"` equals 0.5); on a string
 *   field, a numeric value is compared as its decimal text.
 * - gt/lt/gte/lte apply to numeric fields; string operators to string fields. A rule whose
 *   operator does not apply to its field, names an unknown field or operator, or holds a pattern
 *   that does not compile never matches (`filterRulesProblem` refuses such rules when saved).
 * - A missing field (no session, no captured text) fails every operator but `not_exists`.
 * - `input` and `output` are read before privacy mode strips them: filtering routes, it does
 *   not export.
 */
export function compileFilter(rules: FilterRules | null): GenerationFilter {
  if (!rules || rules.enabled === false || rules.groups.length === 0) return () => true;
  return compiledGroups(rules);
}

/** Compiled once per rules object: it lives as long as its destination in the read cache, and a drain asks for its filter once per generation. */
const compiledGroups = oncePer((rules: FilterRules): GenerationFilter => {
  const groups = rules.groups.map((group) => ({ any: group.logic === "or", tests: group.rules.map(compileRule) }));
  return (g) => groups.some(({ any, tests }) => (any ? tests.some((t) => t(g)) : tests.every((t) => t(g))));
});

/** What is wrong with a destination's rules, for the 400 when they are saved; null when nothing. */
export function filterRulesProblem(rules: FilterRules | null): string | null {
  if (!rules) return null;
  for (const [gi, group] of rules.groups.entries()) {
    for (const [ri, rule] of group.rules.entries()) {
      const problem = filterRuleProblem(rule);
      if (problem) return `filter_rules.groups[${gi}].rules[${ri}]: ${problem.message}`;
    }
  }
  return null;
}

/** Which part of a rule is at fault, and why: the API's 400 names `…rules[i].<part>`. */
export type RuleProblem = { part: "field" | "operator" | "value"; message: string };

/**
 * Whether a rule can be evaluated as saved. The API refuses what this refuses, and the pipeline
 * evaluates a rule it refuses as never matching, so what is stored is what runs.
 */
export function filterRuleProblem(rule: FilterRule): RuleProblem | null {
  const numeric = isNumberField(rule.field);
  if (!numeric && !isStringField(rule.field)) return { part: "field", message: `unknown field '${rule.field}'` };
  if (!(FILTER_OPERATORS as readonly string[]).includes(rule.operator)) return { part: "operator", message: `unknown operator '${rule.operator}'` };
  if (rule.operator === "exists" || rule.operator === "not_exists")
    return rule.value === undefined ? null : { part: "value", message: `'${rule.operator}' takes no value` };
  if (rule.value === undefined) return { part: "value", message: `'${rule.operator}' needs a value` };
  if (numeric && STRING_ONLY.has(rule.operator))
    return { part: "operator", message: `operator '${rule.operator}' applies to text fields, not '${rule.field}'` };
  if (!numeric && NUMBER_ONLY.has(rule.operator))
    return { part: "operator", message: `operator '${rule.operator}' applies to numeric fields, not '${rule.field}'` };
  if (numeric && (typeof rule.value === "string" ? rule.value.trim() === "" || !Number.isFinite(Number(rule.value)) : !Number.isFinite(rule.value)))
    return { part: "value", message: `'${rule.field}' is numeric: the value must be a number` };
  if (STRING_ONLY.has(rule.operator) && typeof rule.value !== "string") return { part: "value", message: `'${rule.operator}' takes a string` };
  if (rule.operator === "regex") {
    if (String(rule.value).length > MAX_PATTERN_LENGTH) return { part: "value", message: `a regex of at most ${MAX_PATTERN_LENGTH} characters` };
    const compiled = compileBoundedRegex(String(rule.value));
    if (!compiled.ok) return { part: "value", message: `not a valid regular expression: ${compiled.error}` };
  }
  return null;
}

const never: RuleTest = () => false;

function compileRule(rule: FilterRule): RuleTest {
  if (filterRuleProblem(rule) !== null) return never;
  if (isNumberField(rule.field)) return numberRule(rule.field, rule.operator as FilterOperator, rule.value);
  return stringRule(rule.field as StringField, rule.operator as FilterOperator, rule.value);
}

function numberRule(field: NumberField, operator: FilterOperator, value: FilterRule["value"]): RuleTest {
  const n = Number(value);
  const compare =
    (test: (x: number) => boolean): RuleTest =>
    (g) => {
      const x = numberField(g, field);
      return x !== undefined && test(x);
    };
  switch (operator) {
    case "exists":
      return (g) => numberField(g, field) !== undefined;
    case "not_exists":
      return (g) => numberField(g, field) === undefined;
    case "equals":
      return compare((x) => x === n);
    case "not_equals":
      return compare((x) => x !== n);
    case "gt":
      return compare((x) => x > n);
    case "lt":
      return compare((x) => x < n);
    case "gte":
      return compare((x) => x >= n);
    case "lte":
      return compare((x) => x <= n);
    default:
      return never;
  }
}

function stringRule(field: StringField, operator: FilterOperator, value: FilterRule["value"]): RuleTest {
  const v = value === undefined ? "" : String(value);
  const compare =
    (test: (x: string) => boolean): RuleTest =>
    (g) => {
      const x = stringField(g, field);
      return x !== undefined && test(x);
    };
  switch (operator) {
    case "exists":
      return (g) => stringField(g, field) !== undefined;
    case "not_exists":
      return (g) => stringField(g, field) === undefined;
    case "equals":
      return compare((x) => x === v);
    case "not_equals":
      return compare((x) => x !== v);
    case "contains":
      return compare((x) => x.includes(v));
    case "not_contains":
      return compare((x) => !x.includes(v));
    case "starts_with":
      return compare((x) => x.startsWith(v));
    case "ends_with":
      return compare((x) => x.endsWith(v));
    case "regex": {
      const regex = (compileBoundedRegex(v) as { regex: BoundedRegex }).regex;
      return compare((x) => regex.test(x));
    }
    default:
      return never;
  }
}
