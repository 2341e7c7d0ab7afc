/**
 * A loopback Cohere v2 rerank API: POST /v2/rerank ranks the documents last-first (scores 0.9,
 * 0.8, ...), cut to top_n, and bills `searchUnits` (absent from meta when null).
 */
import { type MockBase, startMockBase } from "./mock-base";

export type RerankMock = MockBase & {
  bodies: Array<Record<string, unknown>>;
  /** meta.billed_units.search_units; null: no meta */
  searchUnits: number | null;
};

/** Cohere's error body */
const cohereError = (message: string) => ({ id: "err-1", message });

export function startRerankMock(key = "cohere-key"): RerankMock {
  const mock: RerankMock = {
    ...startMockBase(
      key,
      async (request, path) => {
        if (request.method !== "POST" || path !== "/v2/rerank") return Response.json(cohereError(`no route ${request.method} ${path}`), { status: 404 });
        const body = (await request.json()) as { documents: string[]; top_n?: number };
        mock.bodies.push(body);
        const ranked = body.documents.map((_, index) => index).reverse();
        const results = ranked
          .slice(0, body.top_n ?? ranked.length)
          .map((index, rank) => ({ index, relevance_score: Math.round((0.9 - rank * 0.1) * 1000) / 1000 }));
        return Response.json({
          id: "07734bd2-2473-4f07-94e1-0d9f0e6843cf",
          results,
          ...(mock.searchUnits === null ? {} : { meta: { api_version: { version: "2" }, billed_units: { search_units: mock.searchUnits } } }),
        });
      },
      cohereError,
    ),
    bodies: [],
    searchUnits: 1,
  };
  return mock;
}
