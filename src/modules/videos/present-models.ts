import type { VideoCatalogModel } from "../../videos/video-catalog";

const SKU_NAMES: Readonly<Record<string, string>> = { per_second: "duration_seconds", per_second_audio: "duration_seconds_with_audio", per_video: "video" };

/** A video model as OpenRouter's VideoModel (GET /videos/models): the union of its endpoints' capabilities. */
export function presentVideoModel(m: VideoCatalogModel) {
  const all = <T>(pick: (e: VideoCatalogModel["endpoints"][number]) => readonly T[]): T[] => [...new Set(m.endpoints.flatMap(pick))];
  const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
  const orNull = <T>(xs: T[]): T[] | null => (xs.length === 0 ? null : xs);
  const skus = Object.fromEntries(m.endpoints.flatMap((e) => Object.entries(e.pricingStrings).map(([k, v]) => [SKU_NAMES[k] ?? k, v])));
  return {
    id: m.id,
    canonical_slug: m.id,
    name: m.name,
    created: m.created,
    ...(m.description !== undefined ? { description: m.description } : {}),
    hugging_face_id: m.huggingFaceId,
    allowed_passthrough_parameters: all((e) => e.capabilities.passthrough),
    supported_durations: sorted(all((e) => e.capabilities.durations)),
    supported_resolutions: orNull(all((e) => e.capabilities.resolutions)),
    supported_aspect_ratios: orNull(all((e) => e.capabilities.aspectRatios)),
    supported_sizes: orNull(all((e) => e.capabilities.sizes)),
    supported_frame_images: orNull(all((e) => e.capabilities.frameImages)),
    generate_audio: m.endpoints.some((e) => e.capabilities.generateAudio),
    seed: m.endpoints.some((e) => e.capabilities.seed),
    creativity: null,
    upscale_factor: null,
    pricing_skus: Object.keys(skus).length === 0 ? null : skus,
  };
}
