import type { IRImagePart, IRMessage, IRRequest } from "../ir/types";
import { sendOutbound } from "../outbound/client";
import { type OutboundContext, outboundOptionsOf } from "../outbound/policy";

/** An image fetched for an API that takes images as bytes only, or why it could not be. */
export type FetchedImage = { ok: true; mediaType: string; data: string } | { ok: false; message: string };
export type ImageFetcher = (url: string) => Promise<FetchedImage>;

/** The largest image fetched to inline: Bedrock takes images up to 3.75 MB, Claude up to 5 MB. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const isWebUrl = (url: string) => /^https?:\/\//i.test(url);

/**
 * A client's image URL fetched through the guarded outbound client (a URL the client supplies may
 * name nothing the gateway's own network should reach): refused, missing, too large or not an image,
 * it is the request's fault.
 */
export function outboundImageFetcher(ctx: OutboundContext): ImageFetcher {
  const options = { ...outboundOptionsOf(ctx), maxResponseBytes: MAX_IMAGE_BYTES + 1 };
  return async (url) => {
    const result = await sendOutbound({ url, method: "GET", headers: { accept: "image/*" } }, options);
    if (result.kind !== "response")
      return { ok: false, message: `image URL ${result.kind === "refused" ? result.reason : `could not be fetched: ${result.reason}`}` };
    if (result.status < 200 || result.status >= 300) return { ok: false, message: `image URL answered HTTP ${result.status}` };
    if (result.truncated) return { ok: false, message: `image is larger than ${MAX_IMAGE_BYTES} bytes` };
    const mediaType = (result.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (!mediaType.startsWith("image/")) return { ok: false, message: `image URL answered ${mediaType || "no content type"}, not an image` };
    return { ok: true, mediaType, data: Buffer.from(result.body).toString("base64") };
  };
}

function webImageUrls(messages: readonly IRMessage[]): string[] {
  const urls = new Set<string>();
  const visit = (part: { type: string }) => {
    const image = part as IRImagePart;
    if (part.type === "image" && image.source.kind === "url" && isWebUrl(image.source.url)) urls.add(image.source.url);
  };
  for (const m of messages) {
    if (m.role === "user") m.content.forEach(visit);
    if (m.role === "tool" && typeof m.content !== "string") m.content.forEach(visit);
  }
  return [...urls];
}

export const hasWebImages = (ir: IRRequest): boolean => webImageUrls(ir.messages).length > 0;

/** The request with every web image URL replaced by the image's bytes, each URL fetched once; or the first image that failed. */
export async function withInlineImages(ir: IRRequest, fetchImage: ImageFetcher): Promise<{ ok: true; request: IRRequest } | { ok: false; message: string }> {
  const urls = webImageUrls(ir.messages);
  const fetched = await Promise.all(urls.map(fetchImage));
  const failed = fetched.find((f) => !f.ok);
  if (failed && !failed.ok) return { ok: false, message: failed.message };
  const byUrl = new Map(urls.map((url, i) => [url, fetched[i] as Extract<FetchedImage, { ok: true }>]));
  const inline = <P extends { type: string }>(part: P): P => {
    const image = part as unknown as IRImagePart;
    if (part.type !== "image" || image.source.kind !== "url") return part;
    const got = byUrl.get(image.source.url);
    return got ? ({ ...image, source: { kind: "base64", mediaType: got.mediaType, data: got.data } } as unknown as P) : part;
  };
  const messages = ir.messages.map((m): IRMessage => {
    if (m.role === "user") return { ...m, content: m.content.map(inline) };
    if (m.role === "tool" && typeof m.content !== "string") return { ...m, content: m.content.map(inline) };
    return m;
  });
  return { ok: true, request: { ...ir, messages } };
}
