import { nanosToUsd } from "../../billing/money";
import { aspectRatioOf, BACKGROUNDS } from "../../media/image-request";
import type { ImageEndpoint, MediaModel } from "../../media/media-catalog";
import { unionOf } from "../../media/request-fields";

type Capability = { type: "enum"; values: string[] } | { type: "range"; min: number; max: number } | { type: "boolean" };

/** What endpoints take, as the SDK's capability descriptors: enums of values, n as a range. */
function capabilities(endpoints: readonly ImageEndpoint[]): Record<string, Capability> {
  const qualities = unionOf(endpoints, (e) => e.qualities ?? []);
  return {
    size: { type: "enum", values: unionOf(endpoints, (e) => e.sizes) },
    ...(qualities.length > 0 ? { quality: { type: "enum", values: qualities } } : {}),
    n: { type: "range", min: 1, max: Math.max(...endpoints.map((e) => e.maxImages)) },
    output_format: { type: "enum", values: unionOf(endpoints, (e) => e.outputFormats) },
    aspect_ratio: { type: "enum", values: unionOf(endpoints, (e) => e.sizes.map(aspectRatioOf)) },
    ...(endpoints.some((e) => e.background) ? { background: { type: "enum", values: [...BACKGROUNDS] } } : {}),
    ...(endpoints.some((e) => e.seed) ? { seed: { type: "boolean" } } : {}),
  };
}

export const endpointsPath = (id: string) => `/api/v1/images/models/${id}/endpoints`;

/** An image model as ImageModelListItem: what any of its endpoints takes. */
export function presentImageModel(m: MediaModel<ImageEndpoint>) {
  return {
    id: m.id,
    name: m.name,
    description: m.description,
    created: m.created,
    architecture: { input_modalities: ["text"], output_modalities: ["image"] },
    endpoints: endpointsPath(m.id),
    supported_parameters: capabilities(m.endpoints),
    supports_streaming: false,
  };
}

/** USD per image returned, by variant (one entry without a variant for a single price). */
function pricing(e: ImageEndpoint) {
  const entry = (nanos: number) => ({ billable: "output_image", unit: "image", cost_usd: nanosToUsd(nanos) });
  if (e.prices.single !== null) return [entry(e.prices.single)];
  return Object.entries(e.prices.byVariant).map(([variant, nanos]) => ({ ...entry(nanos), variant }));
}

/** An image model's endpoints as ImageEndpoint. */
export function presentImageEndpoints(m: MediaModel<ImageEndpoint>) {
  return {
    id: m.id,
    endpoints: m.endpoints.map((e) => ({
      provider_name: e.provider.name,
      provider_slug: e.provider.slug,
      provider_tag: e.provider.slug,
      supported_parameters: capabilities([e]),
      pricing: pricing(e),
      allowed_passthrough_parameters: [...e.passthrough],
      supports_streaming: false,
    })),
  };
}
