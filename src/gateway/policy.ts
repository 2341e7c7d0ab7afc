import type { AppContext } from "../app-context";
import type { SpendCap } from "../billing/budgets";
import type { PriceTable } from "../catalog/types";
import { GatewayError } from "../errors";
import type { Principal } from "../http/principal";
import { combineGuardrails, type EndpointFacts, type GuardrailPolicy } from "./guardrails/combine";
import { screenText } from "./guardrails/content-filter";
import { defaultGuardrailId } from "./guardrails/default-guardrail";
import type { TextEdit } from "./guardrails/request-text";

/**
 * The policy step of the generation lifecycle, between routing and admission: the guardrails of
 * the request's key (its workspace's default, its creator's, its own) narrow the candidates,
 * add their budgets to what admission reserves, and screen the request's text (redact, block,
 * flag) before anything is sent upstream. An operation hands over its content only if it has
 * text to screen; one that has none gets the candidate and budget rules alone.
 */

/** What the step needs of a candidate: the lifecycle's `GenerationCandidate` has it, and so does a video job's. */
export type PolicyCandidate = { endpoint: { provider: { slug: string; name: string } }; model: { id: string } };

/**
 * What the step reads of a candidate beyond that; a field a kind of candidate lacks counts as
 * unknown. `free`: said by an endpoint priced in units of its own (a video's, per second), whose
 * prices are no `PriceTable`.
 */
type PolicyView = {
  endpoint: {
    provider: { slug: string; name: string; zdr?: boolean; dataCollection?: "allow" | "deny" };
    pricing?: Partial<PriceTable>;
    free?: boolean;
  };
  model: { id: string };
};

/** The request as the policy step may screen it: the operation's own request, and how to walk and rewrite its text. */
export type PolicyContent<R> = { request: R; mapText(request: R, edit: TextEdit): R };

export type PolicyOutcome<C, R> = {
  candidates: C[];
  /** spending caps admission reserves against with the key's limit and the workspace's budgets */
  caps: readonly SpendCap[];
  /** the request as it may go upstream (redacted), or undefined when the operation gave none */
  request: R | undefined;
  /** the filters that flagged the request, for its record */
  flags: readonly string[];
};

export async function applyPolicy<C extends PolicyCandidate, R>(
  deps: Pick<AppContext, "store">,
  principal: Principal,
  candidates: C[],
  content: PolicyContent<R> | undefined,
): Promise<PolicyOutcome<C, R>> {
  const applying = await deps.store.guardrails.applying(defaultGuardrailId(principal.workspace.id), principal.key);
  if (applying.length === 0) return { candidates, caps: [], request: content?.request, flags: [] };
  const policy = combineGuardrails(applying);
  const kept = allowedCandidates(policy, candidates);
  const screened = content && policy.filters ? screenRequest(policy, content) : { request: content?.request, flags: [] };
  return { candidates: kept, caps: policy.caps, ...screened };
}

function endpointFacts(c: PolicyView): EndpointFacts {
  const { provider, pricing, free } = c.endpoint;
  const prices = pricing ? Object.values(pricing) : [];
  return {
    modelId: c.model.id,
    providerSlug: provider.slug,
    providerName: provider.name,
    zdr: provider.zdr === true,
    collectsData: provider.dataCollection !== "deny",
    free: free ?? (pricing !== undefined && prices.every((p) => p === 0)),
  };
}

/**
 * The candidates every guardrail allows; none left: refused before anything is sent upstream, 404
 * as OpenRouter answers a request its guardrails leave no endpoint for, naming the guardrails.
 */
function allowedCandidates<C extends PolicyCandidate>(policy: GuardrailPolicy, candidates: C[]): C[] {
  const reasons: string[] = [];
  const kept = candidates.filter((c) => {
    const why = policy.refusal(endpointFacts(c as PolicyView));
    if (why !== null && !reasons.includes(why)) reasons.push(why);
    return why === null;
  });
  if (kept.length === 0 && candidates.length > 0)
    throw new GatewayError(404, `No endpoints available matching your guardrail restrictions and data policy: ${reasons.join("; ")}`, {
      reasons,
    });
  return kept;
}

/** The request with its redactions, or a 403 for a block (OpenRouter's messages). */
function screenRequest<R>(policy: GuardrailPolicy, content: PolicyContent<R>): { request: R; flags: string[] } {
  const filters = policy.filters!;
  const flags = new Set<string>();
  const request = content.mapText(content.request, (text, site) => {
    const screened = screenText(filters, text, site.role === "user");
    for (const f of screened.flagged) flags.add(f);
    const { blocked } = screened;
    if (blocked?.injection) throw new GatewayError(403, "Request blocked: prompt injection patterns detected", { patterns: blocked.injection });
    if (blocked) throw new GatewayError(403, `Request blocked by content filter: ${blocked.name}`);
    return screened.text;
  });
  return { request, flags: [...flags] };
}
