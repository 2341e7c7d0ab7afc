import type { UpstreamOperation } from "../../gateway/generation";
import { decodeImages, imagesBody, imagesUrl } from "../../media/apis/openai-images";
import type { ImageRequest } from "../../media/image-request";
import { jsonAnswer, mediaOperation, unreadableAnswer } from "../../media/media-call";
import type { ImageEndpoint } from "../../media/media-catalog";
import type { MediaCandidate } from "../../media/media-route";
import { type OutboundOptions, sendOutbound } from "../../outbound/client";

/** An upstream's images, every one as base64, with its token usage. */
export type GeneratedImages = { images: string[]; inputTokens: number; outputTokens: number; created: number | null };

/** The largest image downloaded from an upstream URL (a 4K PNG is some 30 MB). */
const MAX_IMAGE_BYTES = 64 * 1024 * 1024;

/** An image an upstream answered by URL, fetched through the SSRF-guarded client (security.allow_private_urls applies). */
async function download(url: string, outbound: OutboundOptions): Promise<{ ok: true; b64: string } | { ok: false; reason: string }> {
  const result = await sendOutbound({ url, method: "GET", headers: { accept: "image/*" } }, { ...outbound, maxResponseBytes: MAX_IMAGE_BYTES + 1 });
  if (result.kind !== "response") return { ok: false, reason: result.reason };
  if (result.status !== 200) return { ok: false, reason: `HTTP ${result.status}` };
  if (result.truncated) return { ok: false, reason: `larger than ${MAX_IMAGE_BYTES} bytes` };
  return { ok: true, b64: Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength).toString("base64") };
}

/** Image generation as a fallback-loop operation: one POST /images/generations to one candidate, URL answers downloaded. */
export function imagesOperation(
  body: ImageRequest,
  firstByteTimeoutMs: number,
  outbound: OutboundOptions,
): UpstreamOperation<GeneratedImages, MediaCandidate<ImageEndpoint>> {
  return mediaOperation<ImageEndpoint, GeneratedImages>(
    firstByteTimeoutMs,
    ({ endpoint }) => ({ url: imagesUrl(endpoint.provider), json: imagesBody(body, endpoint) }),
    async (res) => {
      const answer = await jsonAnswer(res, "images response");
      if (!answer.ok) return answer;
      const decoded = decodeImages(answer.json);
      if (!decoded) return unreadableAnswer("images response", answer.json);
      const images: string[] = [];
      for (const image of decoded.images) {
        if ("b64" in image) {
          images.push(image.b64);
          continue;
        }
        const fetched = await download(image.url, outbound);
        // the upstream made it but it cannot be handed over: as if it had not answered
        if (!fetched.ok) return unreadableAnswer(`image download (${fetched.reason})`, image.url);
        images.push(fetched.b64);
      }
      return { ok: true, value: { images, inputTokens: decoded.inputTokens, outputTokens: decoded.outputTokens, created: decoded.created } };
    },
  );
}
