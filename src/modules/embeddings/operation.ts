import type { CatalogEndpoint } from "../../catalog/types";
import { upstreamErrorMessage } from "../../formats/error-message";
import type { UpstreamOperation } from "../../gateway/generation";
import { httpFailure, transportFailure } from "../../gateway/upstream-failure";
import { upstreamApis } from "../../providers/apis";
import { firstByteDeadline } from "../../providers/first-byte-deadline";
import { sendUpstream } from "../../providers/transport";
import { transportErrorMessage } from "../../providers/transport-error";
import type { EmbeddingsRequest } from "./model";

export type UpstreamEmbeddings = {
  vectors: Array<{ index: number; embedding: number[] | string }>;
  promptTokens: number | null;
  upstreamId: string | null;
};

const MAX_RAW_BODY = 64 * 1024;

/** The body sent upstream: only the fields of the OpenAI embeddings API; vectors always as floats (converted for the client). */
export function encodeRequest(body: EmbeddingsRequest, upstreamModel: string): Record<string, unknown> {
  const out: Record<string, unknown> = { model: upstreamModel, input: body.input };
  if (body.dimensions !== undefined) out.dimensions = body.dimensions;
  if (body.input_type !== undefined) out.input_type = body.input_type;
  if (body.user !== undefined) out.user = body.user;
  return out;
}

/** The upstream's answer, or null when it is not an embeddings list. */
export function decodeResult(json: unknown): UpstreamEmbeddings | null {
  const j = json as { id?: unknown; data?: unknown; usage?: { prompt_tokens?: unknown } } | null;
  if (!j || !Array.isArray(j.data)) return null;
  const vectors: UpstreamEmbeddings["vectors"] = [];
  for (const [i, d] of (j.data as Array<{ index?: unknown; embedding?: unknown }>).entries()) {
    const e = d?.embedding;
    if (typeof e !== "string" && !(Array.isArray(e) && e.every((x) => typeof x === "number"))) return null;
    vectors.push({ index: typeof d.index === "number" ? d.index : i, embedding: e as number[] | string });
  }
  const prompt = j.usage?.prompt_tokens;
  return { vectors, promptTokens: typeof prompt === "number" && prompt > 0 ? prompt : null, upstreamId: typeof j.id === "string" ? j.id : null };
}

/** Whether the endpoint's upstream API has an embeddings call (Anthropic's has none). */
export const embeddingsServed = (endpoint: CatalogEndpoint): boolean => upstreamApis[endpoint.provider.api].embeddingsUrl !== undefined;

/** Embeddings as a fallback-loop operation: one POST <base_url>/embeddings to one candidate. */
export function embeddingsOperation(body: EmbeddingsRequest, firstByteTimeoutMs: number): UpstreamOperation<UpstreamEmbeddings> {
  return async (candidate, clientSignal) => {
    const deadline = firstByteDeadline(clientSignal, firstByteTimeoutMs);
    try {
      let res: Response;
      try {
        const { provider, upstreamModel } = candidate.endpoint;
        const api = upstreamApis[provider.api];
        // routing offers only endpoints whose API serves embeddings (embeddingsServed)
        const url = api.embeddingsUrl!(provider, upstreamModel);
        res = await sendUpstream({
          api,
          provider,
          credential: candidate.apiKey,
          url,
          body: encodeRequest(body, upstreamModel),
          stream: false,
          signal: deadline.signal,
        });
      } catch (err) {
        return transportFailure(deadline.timedOut() ? "no response before the first-byte timeout" : `connection failed: ${transportErrorMessage(err)}`, {
          timedOut: deadline.timedOut(),
        });
      }
      if (!res.ok) return await httpFailure(res, upstreamErrorMessage);
      const text = await res.text().catch(() => "");
      let json: unknown = text;
      try {
        json = JSON.parse(text);
      } catch {}
      const decoded = decodeResult(json);
      if (!decoded)
        return transportFailure("invalid upstream embeddings response", { status: 502, raw: typeof json === "string" ? json.slice(0, MAX_RAW_BODY) : json });
      return { ok: true, status: res.status, value: decoded };
    } finally {
      deadline.met();
    }
  };
}
