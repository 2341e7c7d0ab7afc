import type { MediaProvider } from "../media-catalog";

/** Cohere's v2 rerank (docs.cohere.com/reference/rerank), which Jina, Voyage and relays copy: POST {base_url}/v2/rerank. */
export const rerankUrl = (provider: MediaProvider): string => `${provider.baseUrl}/v2/rerank`;

/** The upstream body, exactly: the endpoint's model, the query, the documents as strings, top_n only when given. */
export function rerankBody(model: string, query: string, documents: string[], topN: number | undefined): Record<string, unknown> {
  return { model, query, documents, ...(topN !== undefined ? { top_n: topN } : {}) };
}

export type UpstreamRanking = { id: string | null; results: Array<{ index: number; relevanceScore: number }>; searchUnits: number | null };

/** The ranking in the upstream's order and the search units it billed; null when it is not a ranking of these documents. */
export function decodeRanking(json: unknown, documents: number): UpstreamRanking | null {
  const j = json as { id?: unknown; results?: unknown; meta?: { billed_units?: { search_units?: unknown } } } | null;
  if (!j || !Array.isArray(j.results)) return null;
  const results: UpstreamRanking["results"] = [];
  for (const r of j.results as Array<{ index?: unknown; relevance_score?: unknown } | null>) {
    const index = r?.index;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= documents || typeof r?.relevance_score !== "number") return null;
    results.push({ index, relevanceScore: r.relevance_score });
  }
  const units = j.meta?.billed_units?.search_units;
  return { id: typeof j.id === "string" ? j.id : null, results, searchUnits: typeof units === "number" && units >= 0 ? units : null };
}
