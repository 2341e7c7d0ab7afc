import { type ImageRequest, variantFor } from "../image-request";
import type { ImageEndpoint, MediaProvider } from "../media-catalog";
import { passthroughOf } from "../request-fields";

/** OpenAI's Images API (platform.openai.com/docs/api-reference/images/create): POST {base_url}/images/generations. */
export const imagesUrl = (provider: MediaProvider): string => `${provider.baseUrl}/images/generations`;

/**
 * The upstream body, exactly: the endpoint's model, the prompt, n, the endpoint's size and
 * quality for the request, the output fields the client set, seed where the endpoint takes it, and
 * the serving provider's allowed passthrough parameters. Never the gateway's own fields (user,
 * session_id, trace, provider, stream) nor response_format: the answer is always base64.
 */
export function imagesBody(body: ImageRequest, e: ImageEndpoint): Record<string, unknown> {
  const { size, quality } = variantFor(e, body);
  return {
    model: e.upstreamModel,
    prompt: body.prompt,
    n: body.n ?? 1,
    size,
    ...(quality !== null ? { quality } : {}),
    ...(body.output_format !== undefined ? { output_format: body.output_format } : {}),
    ...(body.output_compression !== undefined ? { output_compression: body.output_compression } : {}),
    ...(body.background !== undefined ? { background: body.background } : {}),
    ...(body.seed !== undefined && e.seed ? { seed: body.seed } : {}),
    ...passthroughOf(body.provider?.options, e),
  };
}

export type UpstreamImage = { b64: string } | { url: string };
export type UpstreamImages = { images: UpstreamImage[]; inputTokens: number; outputTokens: number; created: number | null };

/** The answer's images (`b64_json`, or a `url` to download) and token usage; null when it is not an images answer. */
export function decodeImages(json: unknown): UpstreamImages | null {
  const j = json as { data?: unknown; usage?: { input_tokens?: unknown; output_tokens?: unknown }; created?: unknown } | null;
  if (!j || !Array.isArray(j.data)) return null;
  const images: UpstreamImage[] = [];
  for (const d of j.data as Array<{ b64_json?: unknown; url?: unknown } | null>) {
    if (typeof d?.b64_json === "string") images.push({ b64: d.b64_json });
    else if (typeof d?.url === "string") images.push({ url: d.url });
    else return null;
  }
  const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);
  return {
    images,
    inputTokens: count(j.usage?.input_tokens),
    outputTokens: count(j.usage?.output_tokens),
    created: typeof j.created === "number" ? j.created : null,
  };
}
