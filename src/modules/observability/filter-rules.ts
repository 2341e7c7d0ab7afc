import { badRequest } from "../../errors";
import type { FilterRules } from "../../observability/contract";
import type { FilterRulesInput } from "./model";

/** The ReDoS guard of reference §1.6: patterns are short and compiled when saved. */
export const MAX_REGEX_CHARS = 512;

const NUMERIC_FIELDS = new Set(["total_cost", "total_tokens", "prompt_tokens", "completion_tokens"]);
const COMPARISONS = new Set(["gt", "lt", "gte", "lte"]);
const TEXT_MATCHES = new Set(["contains", "not_contains", "starts_with", "ends_with", "regex"]);
const PRESENCE = new Set(["exists", "not_exists"]);

const isNumeric = (value: unknown) => typeof value === "number" || (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)));

/** What is wrong with one rule, if anything: [which part, why]. */
function ruleProblem(field: string, operator: string, value: string | number | undefined): ["field" | "operator" | "value", string] | undefined {
  if (PRESENCE.has(operator)) return value === undefined ? undefined : ["value", `'${operator}' takes no value`];
  if (value === undefined) return ["value", `'${operator}' needs a value`];
  const numeric = NUMERIC_FIELDS.has(field);
  if (COMPARISONS.has(operator) && !numeric) return ["operator", `'${operator}' applies to numeric fields only (total_cost, total_tokens, prompt_tokens, completion_tokens)`];
  if (TEXT_MATCHES.has(operator) && numeric) return ["operator", `'${operator}' applies to text fields only`];
  if (numeric && !isNumeric(value)) return ["value", `'${field}' is compared with a number`];
  if (TEXT_MATCHES.has(operator) && typeof value !== "string") return ["value", `'${operator}' takes a string`];
  if (operator === "regex") {
    const pattern = value as string;
    if (pattern.length > MAX_REGEX_CHARS) return ["value", `a regex of at most ${MAX_REGEX_CHARS} characters`];
    try {
      new RegExp(pattern);
    } catch (err) {
      return ["value", `not a valid regular expression: ${err instanceof Error ? err.message : String(err)}`];
    }
  }
  return undefined;
}

/**
 * Filter rules as saved: every rule's operator fits its field and value (a 400 naming the rule,
 * `filter_rules.groups[0].rules[1].value`), regexes compile, and the defaults are written out
 * (`enabled: true`, `logic: "and"`) so what is stored is what is evaluated.
 */
export function checkedFilterRules(rules: FilterRulesInput | null): FilterRules | null {
  if (rules === null) return null;
  rules.groups.forEach((group, g) =>
    group.rules.forEach((rule, r) => {
      const problem = ruleProblem(rule.field, rule.operator, rule.value);
      if (!problem) return;
      const field = `filter_rules.groups[${g}].rules[${r}].${problem[0]}`;
      throw badRequest(`Invalid '${field}': ${problem[1]}`, { field });
    }),
  );
  return {
    enabled: rules.enabled ?? true,
    groups: rules.groups.map((group) => ({ logic: group.logic ?? "and", rules: group.rules.map((rule) => ({ ...rule })) })),
  };
}
