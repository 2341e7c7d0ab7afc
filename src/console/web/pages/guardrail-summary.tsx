import { usd } from "../format";
import type { ConsoleGuardrail } from "../types";
import { BUILTIN_FILTERS } from "./guardrail-form";

const ZDR_FIELDS = ["enforce_zdr_anthropic", "enforce_zdr_openai", "enforce_zdr_google", "enforce_zdr_xai", "enforce_zdr_other"] as const;

/** "$50.00 monthly · BYOK counted"; "No budget" */
export function budgetText(g: ConsoleGuardrail): string {
  if (g.limit_usd === null) return "No budget";
  return `${usd(g.limit_usd)} ${g.reset_interval ?? ""}${g.include_byok_in_budgets ? " · BYOK counted" : ""}`;
}

/** each allow and ignore list that is set, one line each */
export function ListLines({ g }: { g: ConsoleGuardrail }) {
  const lines = [
    ["Models", g.allowed_models],
    ["Not models", g.ignored_models],
    ["Providers", g.allowed_providers],
    ["Not providers", g.ignored_providers],
    ["Regions", g.allowed_data_regions],
  ].filter((l): l is [string, string[]] => Array.isArray(l[1]));
  if (lines.length === 0) return <span class="muted">Any</span>;
  return (
    <ul class="plain">
      {lines.map(([what, list]) => (
        <li key={what}>
          {what}: <span class="break">{list.join(", ")}</span>
        </li>
      ))}
    </ul>
  );
}

/** "ZDR: every model" or the vendors, and the training switches that are set */
export function policyText(g: ConsoleGuardrail): string {
  const vendors = ZDR_FIELDS.filter((f) => g[f] === true).map((f) => f.replace("enforce_zdr_", ""));
  const parts = [vendors.length === ZDR_FIELDS.length ? "ZDR: every vendor" : vendors.length ? `ZDR: ${vendors.join(", ")}` : null];
  if (g.enable_paid_model_training === false) parts.push("no training (paid)");
  if (g.enable_free_model_training === false) parts.push("no training (free)");
  if (g.enable_free_model_publication === false) parts.push("no publication (free)");
  const set = parts.filter(Boolean);
  return set.length ? set.join(" · ") : "Not set";
}

const builtinName = (slug: string) => BUILTIN_FILTERS.find(([s]) => s === slug)?.[1] ?? slug;

/** "Email addresses: block · /acme-\d+/: redact" */
export function filtersText(g: ConsoleGuardrail): string {
  const parts = [
    ...(g.content_filter_builtins ?? []).map((b) => `${builtinName(b.slug)}: ${b.action}`),
    ...(g.content_filters ?? []).map((c) => `${c.label ?? `/${c.pattern}/`}: ${c.action}`),
  ];
  return parts.length ? parts.join(" · ") : "None";
}
