import type { CatalogEndpoint, CatalogModel } from "../../catalog/types";
import { GatewayError } from "../../errors";
import type { Candidate, Credential } from "../candidates";
import { describeRemovals, type FilterContext, filterEndpoints, type Removal } from "./filters";
import { type OrderContext, orderEndpoints } from "./order";
import { sortOf } from "./preferences";

export type PlanInput = Omit<FilterContext, "hasCredentials"> &
  OrderContext & {
    models: CatalogModel[];
    requested: string;
    /** usable credentials for an endpoint, in the order to try them */
    credentials: (endpoint: CatalogEndpoint) => Credential[];
  };

/**
 * Candidates in try order: the endpoints of each requested model that pass the filters,
 * ordered per model (or all together with sort partition "none"), one candidate per
 * usable credential. Nothing left: 503 saying which filter removed what; 400 when only the
 * context lengths did (the request itself is too long, trying again will not help).
 */
export function planRoute(input: PlanInput): Candidate[] {
  const removed: Removal[] = [];
  const filterCtx: FilterContext = { ...input, hasCredentials: (e) => input.credentials(e).length > 0 };
  const groups = input.models.map((model) => ({ model, endpoints: filterEndpoints(model, filterCtx, removed) }));

  const { by, partition } = sortOf(input.prefs, input.workspaceSort);
  let ordered: Array<{ endpoint: CatalogEndpoint; model: CatalogModel }>;
  if (by && partition === "none") {
    const all = groups.flatMap((g) => g.endpoints.map((endpoint) => ({ endpoint, model: g.model })));
    const order = orderEndpoints(
      all.map((x) => x.endpoint),
      input,
    );
    ordered = order.map((endpoint) => all.find((x) => x.endpoint === endpoint)!);
  } else {
    ordered = groups.flatMap((g) => orderEndpoints(g.endpoints, input).map((endpoint) => ({ endpoint, model: g.model })));
  }

  const candidates: Candidate[] = [];
  for (const { endpoint, model } of ordered) {
    for (const cred of input.credentials(endpoint)) candidates.push({ endpoint, model, apiKey: cred.apiKey, isByok: cred.isByok });
  }
  if (candidates.length === 0) {
    const survivors = groups.flatMap((g) => g.endpoints.map((e) => e.id));
    if (survivors.length === 0 && removed.length > 0 && removed.every((r) => r.filter === "context_length")) throw tooLong(input);
    const reasons = removed.length ? [describeRemovals(removed)] : [];
    // endpoints that passed every filter but are not in `order`, which allow_fallbacks: false forbids
    if (survivors.length) reasons.push(`provider.order [${(input.prefs.order ?? []).join(", ")}] with allow_fallbacks: false removed ${survivors.join(", ")}`);
    const why = reasons.length ? reasons.join("; ") : "no endpoints";
    throw new GatewayError(503, `No endpoint satisfies the routing requirements for ${input.requested}: ${why}`, { removed });
  }
  return candidates;
}

/** The request needs more tokens than any endpoint's context holds: a 400 naming the largest context length, and the field to shorten. */
function tooLong(input: PlanInput): GatewayError {
  const largest = Math.max(...input.models.flatMap((m) => m.endpoints.map((e) => e.contextLength)));
  const need = input.estimatedPromptTokens + input.requestedOutputTokens;
  const field = input.estimatedPromptTokens > largest ? "messages" : "max_tokens";
  return new GatewayError(
    400,
    `This request needs about ${need} tokens (${input.estimatedPromptTokens} of prompt, ${input.requestedOutputTokens} of output), more than ${input.requested}'s context length of ${largest} tokens; shorten the ${field === "messages" ? "prompt" : "max_tokens"}`,
    { field, context_length: largest, requested_tokens: need },
  );
}
