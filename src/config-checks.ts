import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { defaultProviderSlugs } from "./catalog/default-catalog";
import { type ConfigIssue, configIssue } from "./config-error";
import { isMediaApi } from "./config-media-schema";
import { type GatewayFile, GatewayFileSchema } from "./config-schema";
import { pointerToField } from "./json-pointer";
import { isVideoApi } from "./videos/video-api";

/** What is wrong with a parsed gateway.yaml: fields against the schema, then names one part gives another. */

function describeExpected(schema: TSchema): string {
  if (typeof schema.description === "string") return schema.description;
  if (Array.isArray(schema.anyOf) && schema.anyOf.every((s: TSchema) => s.const !== undefined))
    return `one of ${schema.anyOf.map((s: TSchema) => String(s.const)).join(", ")}`;
  if (schema.pattern) return `a string matching ${schema.pattern}`;
  if (schema.type === "array" && typeof schema.minItems === "number") return `a list of at least ${schema.minItems} item${schema.minItems === 1 ? "" : "s"}`;
  if (schema.type === "number" && schema.exclusiveMinimum !== undefined) return `a number > ${schema.exclusiveMinimum}`;
  if (schema.type === "integer") return `an integer${schema.minimum !== undefined ? ` >= ${schema.minimum}` : ""}`;
  if (schema.type === "object" && schema.additionalProperties === false) return `only the keys ${Object.keys(schema.properties ?? {}).join(", ")}`;
  if (schema.type) return `a value of type ${schema.type}`;
  return "a valid value";
}

/** Every field that fails the schema, once each (a field may break several rules; its first says enough). */
export function schemaIssues(parsed: unknown): ConfigIssue[] {
  const byField = new Map<string, ConfigIssue>();
  for (const error of Value.Errors(GatewayFileSchema, parsed)) {
    const field = pointerToField(error.path) || "(root)";
    if (!byField.has(field)) byField.set(field, configIssue(field, describeExpected(error.schema), error.value));
  }
  return [...byField.values()];
}

/** Endpoints may name a gateway.yaml provider or, while the default catalog is on, one of its providers. */
export function referenceIssues(file: GatewayFile, defaultCatalog: boolean): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const slugs = new Set<string>(defaultCatalog ? defaultProviderSlugs() : []);
  const declared = new Set<string>();
  file.providers?.forEach((p, i) => {
    if (declared.has(p.slug)) issues.push(configIssue(`providers[${i}].slug`, "a slug not used by another provider", p.slug));
    // video and media APIs take no chat request to drop fields from: the setting would silently do nothing
    if (p.drop_params && (isVideoApi(p.api) || isMediaApi(p.api)))
      issues.push(
        configIssue(
          `providers[${i}].drop_params`,
          `no drop_params on a ${isVideoApi(p.api) ? "video" : "media"} provider (it applies to openai-chat, openai-responses and anthropic-messages)`,
          p.drop_params,
        ),
      );
    if (p.azure && p.api !== "azure-openai")
      issues.push(configIssue(`providers[${i}].azure`, "no azure block on a provider whose api is not azure-openai", p.api));
    if (p.vertex !== undefined && p.api !== "vertex")
      issues.push(configIssue(`providers[${i}].vertex`, "no vertex block: it applies to api: vertex only", p.vertex));
    declared.add(p.slug);
    slugs.add(p.slug);
  });
  const videoSlugs = new Set((file.providers ?? []).filter((p) => isVideoApi(p.api)).map((p) => p.slug));
  const mediaApis = new Map((file.providers ?? []).filter((p) => isMediaApi(p.api)).map((p) => [p.slug, p.api]));
  const ids = new Set<string>();
  file.models?.forEach((m, i) => {
    if (ids.has(m.id)) issues.push(configIssue(`models[${i}].id`, "a model id not used by another model", m.id));
    ids.add(m.id);
    m.endpoints.forEach((e, j) => {
      if (!slugs.has(e.provider))
        issues.push(
          configIssue(
            `models[${i}].endpoints[${j}].provider`,
            defaultCatalog
              ? "the slug of a provider declared under providers or of a default-catalog provider"
              : "the slug of a provider declared under providers",
            e.provider,
          ),
        );
      else if (videoSlugs.has(e.provider))
        issues.push(configIssue(`models[${i}].endpoints[${j}].provider`, "a chat provider (this one serves video_models only)", e.provider));
      else if (mediaApis.has(e.provider))
        issues.push(
          configIssue(
            `models[${i}].endpoints[${j}].provider`,
            `a chat provider (this one's api is ${mediaApis.get(e.provider)}: it serves its media list only)`,
            e.provider,
          ),
        );
    });
  });
  const videoIds = new Set<string>();
  file.video_models?.forEach((m, i) => {
    if (videoIds.has(m.id)) issues.push(configIssue(`video_models[${i}].id`, "a model id not used by another video model", m.id));
    videoIds.add(m.id);
    m.endpoints.forEach((e, j) => {
      if (!videoSlugs.has(e.provider))
        issues.push(
          configIssue(
            `video_models[${i}].endpoints[${j}].provider`,
            "the slug of a provider under providers whose api is openai-videos, fal-queue, replicate or gemini-veo",
            e.provider,
          ),
        );
    });
  });
  const videos = file.videos;
  if (videos?.poll_initial_ms !== undefined && videos.poll_max_ms !== undefined && videos.poll_max_ms < videos.poll_initial_ms)
    issues.push(configIssue("videos.poll_max_ms", `at least poll_initial_ms (${videos.poll_initial_ms})`, videos.poll_max_ms));
  return issues;
}
