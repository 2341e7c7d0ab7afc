import { badRequest } from "../errors";
import type { MediaModel, RerankEndpoint } from "./media-catalog";
import { type MediaCallerFields, refused } from "./request-fields";

/** What of a rerank request the gateway reads (the SDK's CreateRerankRequestBody, snake_case). */
export type RerankRequest = MediaCallerFields & { model: string; query: string; documents: Array<string | { text?: string; image?: string }>; top_n?: number };

/** Cohere's search unit: one query over up to 100 documents. */
export const searchUnitsOf = (documents: number): number => Math.ceil(documents / 100);

/** USD nanos of reranking `documents` on an endpoint: per search unit, or per thousand documents. */
export const rerankNanos = (e: RerankEndpoint, documents: number, searchUnits = searchUnitsOf(documents)): number =>
  e.prices.perSearch > 0 ? searchUnits * e.prices.perSearch : (documents * e.prices.per1kDocuments) / 1000;

/** The documents as text; an image document is a 400 naming it (no upstream here ranks images). */
export function documentTexts(body: RerankRequest): string[] {
  return body.documents.map((d, i) => {
    if (typeof d === "string") return d;
    if (d.image !== undefined) refused(`documents[${i}].image`, `documents[${i}] is an image: ${body.model} ranks text documents only`, []);
    if (typeof d.text !== "string") refused(`documents[${i}]`, `documents[${i}] must be a string or {text}`);
    return d.text;
  });
}

/** Checks the request against the model (a 400 names the field, and the maximum where there is one), then keeps the endpoints that take it, in order. */
export function checkRerankRequest(body: RerankRequest, model: MediaModel<RerankEndpoint>): RerankEndpoint[] {
  if (body.query.trim() === "") refused("query", "query must not be empty");
  if (body.documents.length === 0) refused("documents", "documents must not be empty");
  documentTexts(body);
  const max = Math.max(...model.endpoints.map((e) => e.maxDocuments));
  if (body.documents.length > max)
    throw badRequest(`documents: ${body.documents.length} documents; ${model.id} takes at most ${max}`, { field: "documents", maximum: max });
  if (body.top_n !== undefined && body.top_n < 1) throw badRequest("top_n must be at least 1", { field: "top_n", minimum: 1 });
  return model.endpoints.filter((e) => body.documents.length <= e.maxDocuments);
}
