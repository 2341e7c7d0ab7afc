import { type OutboundOptions, sendOutbound } from "../../outbound/client";
import type { Failed, Transient } from "./adapter";

export type InlineImage = { bytesBase64Encoded: string; mimeType: string };

/** Veo's frame images, fetched whole (not the 64 KB of an answer webhooks read). */
export const MAX_INLINE_IMAGE_BYTES = 20 * 1024 * 1024;

/**
 * An image the upstream only takes inline (Gemini API Veo): a `data:` URL is decoded, any other URL is
 * the caller's and is fetched through the guarded outbound client. A refused, missing or oversized
 * image is the caller's mistake (invalid_request); no answer at all may pass (retry).
 */
export async function inlineImageOf(url: string, outbound: OutboundOptions): Promise<{ kind: "inline"; image: InlineImage } | Failed | Transient> {
  if (url.startsWith("data:")) return decodeDataUrl(url);
  const result = await sendOutbound({ url, method: "GET", headers: { accept: "image/*" } }, { ...outbound, maxResponseBytes: MAX_INLINE_IMAGE_BYTES + 1 });
  if (result.kind === "refused") return invalid(`image URL ${result.reason}`);
  if (result.kind === "failed") return { kind: "retry", reason: `image URL could not be fetched: ${result.reason}` };
  if (result.status < 200 || result.status >= 300) return invalid(`image URL answered HTTP ${result.status}`);
  if (result.truncated || result.body.length > MAX_INLINE_IMAGE_BYTES) return invalid(`image is larger than ${MAX_INLINE_IMAGE_BYTES} bytes`);
  const mimeType = (result.headers.get("content-type") ?? "").split(";")[0]!.trim();
  if (!mimeType.startsWith("image/")) return invalid(`image URL answered ${mimeType || "no content type"}, not an image`);
  return { kind: "inline", image: { bytesBase64Encoded: Buffer.from(result.body).toString("base64"), mimeType } };
}

function decodeDataUrl(url: string): { kind: "inline"; image: InlineImage } | Failed {
  const match = /^data:(image\/[\w.+-]+);base64,([A-Za-z0-9+/=\s]+)$/.exec(url);
  if (!match) return invalid("image data URL must be a base64 image");
  return { kind: "inline", image: { bytesBase64Encoded: match[2]!.replace(/\s/g, ""), mimeType: match[1]! } };
}

const invalid = (message: string): Failed => ({ kind: "failed", code: "invalid_request", message });
