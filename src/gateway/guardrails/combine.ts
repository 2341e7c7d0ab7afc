import type { SpendCap } from "../../billing/budgets";
import type { ApplyingGuardrail, GuardrailRecord } from "../../store/store";
import { type ContentFilters, combineFilters } from "./content-filter";
import { rulesOf, vendorGroup } from "./rules";

/** What the guardrails read of one endpoint a request may be served by. */
export type EndpointFacts = {
  modelId: string;
  providerSlug: string;
  providerName: string;
  /** the provider keeps no data (gateway.yaml `zdr`); unknown: false */
  zdr: boolean;
  /** the provider may train on or keep prompts (gateway.yaml `data_collection: allow`) */
  collectsData: boolean;
  /** every price of the endpoint is 0 */
  free: boolean;
};

/** The guardrails of one request, combined [https://openrouter.ai/docs/guides/features/guardrails, "Guardrail Hierarchy"]. */
export type GuardrailPolicy = {
  /** why the guardrails refuse an endpoint (naming the guardrail), or null when every one allows it */
  refusal(endpoint: EndpointFacts): string | null;
  /** each guardrail's budget, per entity: the key's own for workspace and key guardrails, the member's for a member guardrail */
  caps: SpendCap[];
  /** every guardrail's content filters together; null: none */
  filters: ContentFilters | null;
};

const norm = (s: string) => s.toLowerCase();
const listed = (list: readonly string[], ...names: string[]) => list.some((x) => names.some((n) => norm(x) === norm(n)));

/** One guardrail's objection to an endpoint, or null. */
function objection(g: GuardrailRecord, e: EndpointFacts): string | null {
  const r = rulesOf(g);
  const who = `guardrail '${g.name}'`;
  if (r.allowed_models && !listed(r.allowed_models, e.modelId)) return `${who} does not allow model ${e.modelId}`;
  if (r.ignored_models && listed(r.ignored_models, e.modelId)) return `${who} ignores model ${e.modelId}`;
  if (r.allowed_providers && !listed(r.allowed_providers, e.providerSlug, e.providerName)) return `${who} does not allow provider ${e.providerSlug}`;
  if (r.ignored_providers && listed(r.ignored_providers, e.providerSlug, e.providerName)) return `${who} ignores provider ${e.providerSlug}`;
  const vendor = vendorGroup(e.modelId);
  if (r[`enforce_zdr_${vendor}`] === true && !e.zdr)
    return `${who} enforces zero data retention for ${vendor} models and provider ${e.providerSlug} does not offer it`;
  if (e.collectsData) {
    if (!e.free && r.enable_paid_model_training === false) return `${who} disallows paid endpoints that may train on data (provider ${e.providerSlug})`;
    if (e.free && (r.enable_free_model_training === false || r.enable_free_model_publication === false))
      return `${who} disallows free endpoints that may train on or publish data (provider ${e.providerSlug})`;
  }
  return null;
}

export function combineGuardrails(applying: readonly ApplyingGuardrail[]): GuardrailPolicy {
  const guardrails = applying.map((a) => a.guardrail);
  const caps: SpendCap[] = applying.flatMap(({ scope, guardrail: g }) =>
    g.limitNanos === null
      ? []
      : [
          {
            id: g.id,
            name: g.name,
            on: scope === "member" ? "member" : "key",
            limitNanos: g.limitNanos,
            reset: g.resetInterval,
            includeByok: g.includeByokInBudgets,
          },
        ],
  );
  return {
    refusal(endpoint) {
      for (const g of guardrails) {
        const why = objection(g, endpoint);
        if (why !== null) return why;
      }
      return null;
    },
    caps,
    filters: combineFilters(
      guardrails.flatMap((g) => rulesOf(g).content_filter_builtins ?? []),
      guardrails.flatMap((g) => rulesOf(g).content_filters ?? []),
    ),
  };
}
