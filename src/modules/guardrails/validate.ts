import { usdToNanos } from "../../billing/money";
import { badRequest } from "../../errors";
import { customPatternProblem } from "../../gateway/guardrails/custom-pattern";
import { RULE_KEYS, type Rules, ZDR_VENDORS } from "../../gateway/guardrails/rules";
import type { GuardrailPatch } from "../../store/store";
import type { CreateGuardrailInput, UpdateGuardrailInput } from "./model";

/**
 * The rules a create or update body sets, checked: each custom pattern must be safe to run
 * (400 `invalid_regex_pattern` naming it), and the deprecated `enforce_zdr` fills in every
 * per-vendor switch the body does not set [https://openrouter.ai/docs/api/api-reference/guardrails/create-a-guardrail].
 */
export function rulesOfBody(body: CreateGuardrailInput | UpdateGuardrailInput): Partial<Rules> {
  const rules: Partial<Rules> = {};
  for (const k of RULE_KEYS) if (body[k] !== undefined) (rules as Record<string, unknown>)[k] = body[k];
  if (body.enforce_zdr !== undefined)
    for (const vendor of ZDR_VENDORS) if (body[`enforce_zdr_${vendor}`] === undefined) rules[`enforce_zdr_${vendor}`] = body.enforce_zdr;
  body.content_filters?.forEach((f, i) => {
    const problem = customPatternProblem(f.pattern);
    if (problem !== null) {
      const field = `content_filters[${i}].pattern`;
      throw badRequest(`Invalid field '${field}': invalid_regex_pattern: ${problem}`, { field, code: "invalid_regex_pattern" });
    }
  });
  if (body.content_filter_builtins)
    rules.content_filter_builtins = body.content_filter_builtins.map((b, i) => {
      if (b.scan_scope !== undefined && b.slug !== "regex-prompt-injection") {
        const field = `content_filter_builtins[${i}].scan_scope`;
        throw badRequest(`Invalid field '${field}': only regex-prompt-injection has a scan scope`, { field });
      }
      // the label is the system's: one sent is ignored
      return { slug: b.slug, action: b.action, ...(b.scan_scope === undefined ? {} : { scan_scope: b.scan_scope }) };
    });
  if (body.content_filters) rules.content_filters = body.content_filters.map((f) => ({ pattern: f.pattern, action: f.action, label: f.label ?? null }));
  return rules;
}

/** The rules after a patch: a field sent replaces the stored one (a list whole), null clears it, an absent one stays. */
export function patchedRules(stored: Rules, patch: Partial<Rules>): Rules {
  const out: Record<string, unknown> = { ...stored };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out as Rules;
}

/** On create, a budget needs both its amount and its window. */
export function checkBudgetPair(body: CreateGuardrailInput): void {
  const hasLimit = body.limit_usd !== undefined && body.limit_usd !== null;
  const hasReset = body.reset_interval !== undefined && body.reset_interval !== null;
  if (hasLimit !== hasReset) {
    const field = hasLimit ? "reset_interval" : "limit_usd";
    throw badRequest(`Invalid field '${field}': limit_usd and reset_interval are set together`, { field });
  }
}

/** The columns of an update body (the rules merged by the caller). */
export function patchOf(body: UpdateGuardrailInput): GuardrailPatch {
  const patch: GuardrailPatch = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.description !== undefined) patch.description = body.description;
  if (body.limit_usd !== undefined) patch.limitNanos = body.limit_usd === null ? null : usdToNanos(body.limit_usd);
  if (body.reset_interval !== undefined) patch.resetInterval = body.reset_interval;
  if (body.include_byok_in_budgets !== undefined) patch.includeByokInBudgets = body.include_byok_in_budgets;
  return patch;
}
