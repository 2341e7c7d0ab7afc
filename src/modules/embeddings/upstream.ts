import type { AttemptFailure } from "../../gateway/attempt";
import type { Candidate } from "../../gateway/candidates";
import { sendUpstream } from "../../providers/transport";
import type { EmbeddingsRequest } from "./model";

export type UpstreamEmbeddings = {
  ok: true;
  status: number;
  vectors: Array<{ index: number; embedding: number[] | string }>;
  promptTokens: number | null;
  upstreamId: string | null;
};

const MAX_ERROR_BODY = 64 * 1024;
/** the request itself is wrong: another provider would say the same */
const REQUEST_ERRORS = new Set([400, 413, 422]);

function failure(status: number, message: string, extra: Partial<AttemptFailure> = {}): AttemptFailure {
  return { ok: false, status, message, retryable: !REQUEST_ERRORS.has(status), timedOut: false, ...extra };
}

function errorMessage(raw: unknown): string | null {
  const err = (raw as { error?: unknown } | null)?.error;
  if (typeof err === "string") return err;
  const message = (err as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : null;
}

/** The body sent upstream: only the fields of the OpenAI embeddings API; vectors always as floats (converted for the client). */
export function upstreamBody(body: EmbeddingsRequest, upstreamModel: string): Record<string, unknown> {
  const out: Record<string, unknown> = { model: upstreamModel, input: body.input };
  if (body.dimensions !== undefined) out.dimensions = body.dimensions;
  if (body.input_type !== undefined) out.input_type = body.input_type;
  if (body.user !== undefined) out.user = body.user;
  return out;
}

function parse(json: unknown): Omit<UpstreamEmbeddings, "ok" | "status"> | null {
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

/** One POST <base_url>/embeddings; failures say whether the next candidate may be tried. */
export async function callEmbeddings(candidate: Candidate, body: EmbeddingsRequest, signal: AbortSignal, timeoutMs: number): Promise<UpstreamEmbeddings | AttemptFailure> {
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort(new DOMException("first byte timeout", "TimeoutError"));
  }, timeoutMs);
  const onClientAbort = () => abort.abort(signal.reason);
  signal.addEventListener("abort", onClientAbort, { once: true });
  try {
    let res: Response;
    try {
      res = await sendUpstream({ provider: candidate.endpoint.provider, apiKey: candidate.apiKey, path: "/embeddings", body: upstreamBody(body, candidate.endpoint.upstreamModel), stream: false, signal: abort.signal });
    } catch (err) {
      return failure(0, timedOut ? "no response before the first-byte timeout" : `connection failed: ${(err as Error).message}`, { retryable: true, timedOut });
    }
    const text = await res.text().catch(() => "");
    let json: unknown = text;
    try {
      json = JSON.parse(text);
    } catch {}
    if (!res.ok) {
      return failure(res.status, errorMessage(json) ?? (text.slice(0, MAX_ERROR_BODY) || `HTTP ${res.status}`), { raw: json, retryAfter: res.headers.get("retry-after") ?? undefined });
    }
    const parsed = parse(json);
    if (!parsed) return failure(502, "invalid upstream embeddings response", { raw: typeof json === "string" ? json.slice(0, MAX_ERROR_BODY) : json, retryable: true });
    return { ok: true, status: res.status, ...parsed };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onClientAbort);
  }
}
