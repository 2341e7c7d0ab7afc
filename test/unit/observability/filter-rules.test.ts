import { expect, test } from "bun:test";
import { GatewayError } from "../../../src/errors";
import { checkedFilterRules } from "../../../src/modules/observability/filter-rules";

type Rules = Parameters<typeof checkedFilterRules>[0];

function fault(rules: Rules): string {
  try {
    checkedFilterRules(rules);
    return "ok";
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    return `${err.status} ${err.metadata?.field}: ${err.message}`;
  }
}

const one = (field: string, operator: string, value?: string | number): Rules => ({
  groups: [{ rules: [{ field, operator, ...(value === undefined ? {} : { value }) } as never] }],
});

test("defaults are written out: enabled true, logic and", () => {
  expect(checkedFilterRules({ groups: [{ rules: [{ field: "model", operator: "equals", value: "a/b" }] }] })).toEqual({
    enabled: true,
    groups: [{ logic: "and", rules: [{ field: "model", operator: "equals", value: "a/b" }] }],
  });
  expect(checkedFilterRules(null)).toBeNull();
  expect(checkedFilterRules({ enabled: false, groups: [] })).toEqual({ enabled: false, groups: [] });
});

test("each rule is checked against its field and operator; the 400 names the rule's part", () => {
  expect(fault(one("model", "regex", "^gpt-(4|5)"))).toBe("ok");
  expect(fault(one("total_cost", "gt", 0.5))).toBe("ok");
  expect(fault(one("total_tokens", "gte", "100"))).toBe("ok");
  expect(fault(one("session_id", "exists"))).toBe("ok");
  expect(fault(one("model", "regex", "(unclosed"))).toStartWith(
    "400 filter_rules.groups[0].rules[0].value: Invalid 'filter_rules.groups[0].rules[0].value': not a valid regular expression",
  );
  expect(fault(one("model", "regex", "a".repeat(513)))).toBe(
    "400 filter_rules.groups[0].rules[0].value: Invalid 'filter_rules.groups[0].rules[0].value': a regex of at most 512 characters",
  );
  expect(fault(one("model", "regex", "a".repeat(512)))).toBe("ok");
  expect(fault(one("model", "gt", 3))).toStartWith("400 filter_rules.groups[0].rules[0].operator: ");
  expect(fault(one("total_cost", "contains", "1"))).toStartWith("400 filter_rules.groups[0].rules[0].operator: ");
  expect(fault(one("total_cost", "equals", "cheap"))).toStartWith("400 filter_rules.groups[0].rules[0].value: ");
  expect(fault(one("model", "equals"))).toBe(
    "400 filter_rules.groups[0].rules[0].value: Invalid 'filter_rules.groups[0].rules[0].value': 'equals' needs a value",
  );
  expect(fault(one("user_id", "not_exists", "x"))).toBe(
    "400 filter_rules.groups[0].rules[0].value: Invalid 'filter_rules.groups[0].rules[0].value': 'not_exists' takes no value",
  );
  expect(fault(one("model", "starts_with", 5))).toStartWith("400 filter_rules.groups[0].rules[0].value: ");
  expect(
    fault({
      groups: [
        { rules: [] },
        {
          logic: "or",
          rules: [
            { field: "model", operator: "equals", value: "x" },
            { field: "input", operator: "regex", value: "[" },
          ],
        },
      ],
    }),
  ).toStartWith("400 filter_rules.groups[1].rules[1].value: ");
});
