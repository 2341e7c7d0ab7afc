import type { AppContext } from "../../app-context";
import { GatewayError } from "../../errors";
import type { RequestShape } from "../../gateway/generation";
import type { Principal } from "../../http/principal";
import { mediaCatalogOf } from "../../media/build-media-catalog";
import { rerankContent } from "../../media/media-content";
import { beforeAdmission, capturedText, costOf, mediaEnd, openMediaGeneration, startMediaRequest, usdOf } from "../../media/media-generation";
import { mediaCandidates } from "../../media/media-route";
import { checkRerankRequest, documentTexts, rerankNanos, searchUnitsOf } from "../../media/rerank-request";
import { promptInput } from "../../observability/capture/request-content";
import type { RerankRequestBody, RerankResult } from "./model";
import { rerankOperation } from "./operation";

/**
 * POST /rerank: an operation of the generation lifecycle over the model's cohere-rerank
 * endpoints. The documents' search units (or thousands) are reserved at the dearest candidate's
 * price and charged at the serving one's; one record with api_type "rerank".
 */
export async function rerank(
  ctx: AppContext,
  principal: Principal,
  body: RerankRequestBody,
  http: RequestShape,
): Promise<{ body: RerankResult; headers: Record<string, string> }> {
  const start = startMediaRequest(ctx);
  const { model, candidates, texts } = await beforeAdmission(start, async () => {
    const model = mediaCatalogOf(ctx.config).get("rerank", body.model);
    if (!model)
      throw new GatewayError(404, `Model ${body.model} is not a rerank model of this gateway (see GET /api/v1/models?output_modalities=rerank)`, {
        field: "model",
      });
    const taking = checkRerankRequest(body, model);
    return { model, texts: documentTexts(body), candidates: await mediaCandidates(ctx, principal, { ...model, endpoints: taking }, body.provider ?? {}) };
  });
  const { query, ...parameters } = body;
  const generation = await openMediaGeneration(ctx, start, {
    apiType: "rerank",
    operation: "rerank",
    principal,
    http,
    model,
    body,
    candidates,
    worstCase: (c) => rerankNanos(c.endpoint, texts.length),
    input: () => promptInput(query, parameters),
    content: rerankContent(body),
  });

  // what goes upstream: the query and documents as the guardrails' content filters left them;
  // the answer pairs the scores with the client's own documents
  const screened = generation.request ?? body;
  const attempted = await generation.attempt(rerankOperation(screened.query, documentTexts(screened), body.top_n, ctx.config.routing.firstByteTimeoutMs));
  if (!attempted.ok) throw await generation.fail(attempted);

  const { value, candidate } = attempted;
  const searchUnits = value.searchUnits ?? searchUnitsOf(texts.length);
  const cost = costOf(rerankNanos(candidate.endpoint, texts.length, searchUnits), "other");
  const results = value.results.map((r) => ({ index: r.index, relevance_score: r.relevanceScore, document: { text: texts[r.index]! } }));
  const output = generation.facts.observe ? capturedText(JSON.stringify(results.map((r) => ({ index: r.index, relevance_score: r.relevance_score })))) : null;
  await generation.settle(attempted, mediaEnd(cost, { upstreamId: value.id, output }));
  return {
    body: { id: start.id, model: model.id, provider: candidate.endpoint.provider.name, results, usage: { search_units: searchUnits, cost: usdOf(cost) } },
    headers: start.idHeader,
  };
}
