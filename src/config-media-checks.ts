import { type ConfigIssue, configIssue } from "./config-error";
import { type ImageEndpointConfig, MEDIA_API_OF, MEDIA_KINDS, MEDIA_SECTION_OF, type MediaKind } from "./config-media-schema";
import type { GatewayFile } from "./config-schema";

/**
 * What the schema alone cannot refuse in the media lists: a model id used twice across all model
 * lists, an endpoint whose provider's api is not its kind's, a per-image price map that misses a
 * variant (or names one the endpoint does not list), a pricing block with no price.
 */
export function mediaConfigIssues(file: GatewayFile): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const apiOf = new Map((file.providers ?? []).map((p) => [p.slug, p.api]));
  const taken = new Set([...(file.models ?? []), ...(file.video_models ?? [])].map((m) => m.id));
  for (const kind of MEDIA_KINDS) {
    const section = MEDIA_SECTION_OF[kind];
    file[section]?.forEach((model, i) => {
      if (taken.has(model.id)) issues.push(configIssue(`${section}[${i}].id`, "a model id not used by another model of any list", model.id));
      taken.add(model.id);
      model.endpoints.forEach((e, j) => {
        const at = `${section}[${i}].endpoints[${j}]`;
        if (apiOf.get(e.provider) !== MEDIA_API_OF[kind])
          issues.push(configIssue(`${at}.provider`, `the slug of a provider under providers whose api is ${MEDIA_API_OF[kind]}`, e.provider));
        issues.push(...pricingIssues(kind, e, `${at}.pricing`));
      });
    });
  }
  return issues;
}

function pricingIssues(kind: MediaKind, endpoint: object, at: string): ConfigIssue[] {
  const pricing = (endpoint as { pricing: Record<string, unknown> }).pricing;
  if (kind === "image") return perImageIssues(endpoint as ImageEndpointConfig, `${at}.per_image`);
  const oneOf = kind === "transcription" ? ["per_minute", "per_second"] : kind === "rerank" ? ["per_search", "per_1k_documents"] : [];
  const given = oneOf.filter((k) => pricing[k] !== undefined);
  if (oneOf.length > 0 && given.length !== 1) return [configIssue(at, `exactly one of ${oneOf.join(", ")}`, pricing)];
  return [];
}

/** Every variant the endpoint makes, as per_image keys: "<size>/<quality>", or "<size>" without qualities. */
export const imageVariants = (e: Pick<ImageEndpointConfig, "supported_sizes" | "supported_qualities">): string[] =>
  e.supported_qualities ? e.supported_sizes.flatMap((size) => e.supported_qualities!.map((quality) => `${size}/${quality}`)) : [...e.supported_sizes];

function perImageIssues(e: ImageEndpointConfig, at: string): ConfigIssue[] {
  const prices = e.pricing.per_image;
  if (typeof prices !== "object") return [];
  const variants = imageVariants(e);
  const missing = variants.filter((v) => prices[v] === undefined);
  const unknown = Object.keys(prices).filter((k) => !variants.includes(k));
  const issues: ConfigIssue[] = [];
  if (missing.length > 0)
    issues.push(configIssue(at, `a price for every variant of supported_sizes × supported_qualities (missing ${missing.join(", ")})`, prices));
  if (unknown.length > 0) issues.push(configIssue(at, `only the variants ${variants.join(", ")} (not ${unknown.join(", ")})`, prices));
  return issues;
}
