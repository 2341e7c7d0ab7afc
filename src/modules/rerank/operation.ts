import type { UpstreamOperation } from "../../gateway/generation";
import { decodeRanking, rerankBody, rerankUrl, type UpstreamRanking } from "../../media/apis/cohere-rerank";
import { jsonAnswer, mediaOperation, unreadableAnswer } from "../../media/media-call";
import type { RerankEndpoint } from "../../media/media-catalog";
import type { MediaCandidate } from "../../media/media-route";

/** Rerank as a fallback-loop operation: one POST /v2/rerank to one candidate. */
export function rerankOperation(
  query: string,
  documents: string[],
  topN: number | undefined,
  firstByteTimeoutMs: number,
): UpstreamOperation<UpstreamRanking, MediaCandidate<RerankEndpoint>> {
  return mediaOperation<RerankEndpoint, UpstreamRanking>(
    firstByteTimeoutMs,
    ({ endpoint }) => ({ url: rerankUrl(endpoint.provider), json: rerankBody(endpoint.upstreamModel, query, documents, topN) }),
    async (res) => {
      const answer = await jsonAnswer(res, "rerank response");
      if (!answer.ok) return answer;
      const ranking = decodeRanking(answer.json, documents.length);
      return ranking ? { ok: true, value: ranking } : unreadableAnswer("rerank response", answer.json);
    },
  );
}
