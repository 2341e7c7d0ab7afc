import { badRequest } from "../errors";
import type { ImageEndpoint, MediaModel } from "./media-catalog";
import { checkIn, checkPassthrough, type MediaCallerFields, refused, unionOf } from "./request-fields";

/** What of an image request the gateway reads (the SDK's ImageGenerationRequest, snake_case). */
export type ImageRequest = MediaCallerFields & {
  model: string;
  prompt: string;
  n?: number;
  size?: string;
  quality?: string;
  aspect_ratio?: string;
  resolution?: string;
  output_format?: string;
  output_compression?: number;
  background?: string;
  seed?: number;
  input_references?: unknown[];
};

export const BACKGROUNDS = ["auto", "transparent", "opaque"] as const;

const PIXELS = /^([1-9][0-9]*)x([1-9][0-9]*)$/;
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** A pixel size's reduced ratio, "W:H": 1536x1024 → "3:2". */
export function aspectRatioOf(size: string): string {
  const [, w, h] = PIXELS.exec(size)!;
  const d = gcd(Number(w), Number(h));
  return `${Number(w) / d}:${Number(h) / d}`;
}

/** The size an endpoint makes for the request: the one asked, else the first of the asked ratio, else its first. */
export function sizeFor(e: ImageEndpoint, body: Pick<ImageRequest, "size" | "aspect_ratio">): string | undefined {
  if (body.size !== undefined) return e.sizes.includes(body.size) ? body.size : undefined;
  if (body.aspect_ratio !== undefined) return e.sizes.find((s) => aspectRatioOf(s) === body.aspect_ratio);
  return e.sizes[0];
}

/** The priced variant an endpoint makes: "<size>/<quality>", or "<size>" when it takes no quality. */
export function variantFor(
  e: ImageEndpoint,
  body: Pick<ImageRequest, "size" | "aspect_ratio" | "quality">,
): { size: string; quality: string | null; key: string } {
  const size = sizeFor(e, body)!;
  const quality = e.qualities ? (body.quality ?? e.qualities[0]!) : null;
  return { size, quality, key: quality === null ? size : `${size}/${quality}` };
}

/** USD nanos per image of that variant on that endpoint. */
export const pricePerImage = (e: ImageEndpoint, variantKey: string): number => e.prices.single ?? e.prices.byVariant[variantKey] ?? 0;

function takes(e: ImageEndpoint, body: ImageRequest): boolean {
  return (
    sizeFor(e, body) !== undefined &&
    (body.quality === undefined || (e.qualities ?? []).includes(body.quality)) &&
    (body.n ?? 1) <= e.maxImages &&
    (body.output_format === undefined || e.outputFormats.includes(body.output_format)) &&
    (body.background === undefined || e.background)
  );
}

/**
 * Checks every field against what the model's endpoints take (a 400 names the field and the
 * allowed values, or the maximum), then keeps the endpoints that take the whole request, in order.
 */
export function checkImageRequest(body: ImageRequest, model: MediaModel<ImageEndpoint>): ImageEndpoint[] {
  const id = model.id;
  const endpoints = model.endpoints;
  if (body.prompt.trim() === "") refused("prompt", "prompt must not be empty");
  const sizes = unionOf(endpoints, (e) => e.sizes);
  if (body.resolution !== undefined)
    refused("resolution", `resolution is not supported by ${id}: give a pixel size instead; allowed sizes: ${sizes.join(", ")}`, []);
  if (body.size !== undefined && !PIXELS.test(body.size))
    refused(
      "size",
      `size ${JSON.stringify(body.size)} is not a pixel size (WxH; tiers such as 1K are not supported); allowed values: ${sizes.join(", ")}`,
      sizes,
    );
  checkIn("size", body.size, sizes, id);
  const ratios = unionOf(endpoints, (e) => e.sizes.map(aspectRatioOf));
  checkIn("aspect_ratio", body.aspect_ratio, ratios, id);
  if (body.size !== undefined && body.aspect_ratio !== undefined && aspectRatioOf(body.size) !== body.aspect_ratio)
    refused("aspect_ratio", `aspect_ratio ${body.aspect_ratio} does not agree with size ${body.size} (${aspectRatioOf(body.size)})`, [
      aspectRatioOf(body.size),
    ]);
  checkIn(
    "quality",
    body.quality,
    unionOf(endpoints, (e) => e.qualities ?? []),
    id,
  );
  const maxImages = Math.max(...endpoints.map((e) => e.maxImages));
  if (body.n !== undefined && (body.n < 1 || body.n > maxImages))
    throw badRequest(`n must be from 1 to ${maxImages} for ${id}`, { field: "n", minimum: 1, maximum: maxImages });
  checkIn(
    "output_format",
    body.output_format,
    unionOf(endpoints, (e) => e.outputFormats),
    id,
  );
  checkIn("background", body.background, endpoints.some((e) => e.background) ? [...BACKGROUNDS] : [], id);
  if (body.input_references?.length) refused("input_references", `input_references are not supported by ${id}`, []);
  checkPassthrough(body.provider?.options, endpoints, id);
  const candidates = endpoints.filter((e) => takes(e, body));
  if (candidates.length === 0) {
    const given = (["size", "aspect_ratio", "quality", "n", "output_format", "background"] as const).filter((f) => body[f] !== undefined);
    throw badRequest(`no endpoint of ${id} takes this combination of ${given.join(", ")}`, { fields: given });
  }
  return candidates;
}
