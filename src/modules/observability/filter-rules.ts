import { badRequest } from "../../errors";
import type { FilterRules } from "../../observability/contract";
import { filterRuleProblem } from "../../observability/pipeline/filter-rules";
import type { FilterRulesInput } from "./model";

/**
 * Filter rules as saved: every rule passes the pipeline's own check (`filterRuleProblem`: an
 * operator that fits its field and value, a regex the bounded engine compiles), refused with a
 * 400 naming the rule's part (`filter_rules.groups[0].rules[1].value`), and the defaults are
 * written out (`enabled: true`, `logic: "and"`) so what is stored is what is evaluated.
 */
export function checkedFilterRules(rules: FilterRulesInput | null): FilterRules | null {
  if (rules === null) return null;
  rules.groups.forEach((group, g) =>
    group.rules.forEach((rule, r) => {
      const problem = filterRuleProblem(rule);
      if (!problem) return;
      const field = `filter_rules.groups[${g}].rules[${r}].${problem.part}`;
      throw badRequest(`Invalid '${field}': ${problem.message}`, { field });
    }),
  );
  return {
    enabled: rules.enabled ?? true,
    groups: rules.groups.map((group) => ({ logic: group.logic ?? "and", rules: group.rules.map((rule) => ({ ...rule })) })),
  };
}
