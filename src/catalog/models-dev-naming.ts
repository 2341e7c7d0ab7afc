import { FIRST_PARTY_AUTHOR } from "./models-dev-providers";

/**
 * One model id (`author/slug`) for the same model wherever it is served: groq's
 * `openai/gpt-oss-120b`, cerebras' `gpt-oss-120b` and fireworks'
 * `accounts/fireworks/models/gpt-oss-120b` are all `openai/gpt-oss-120b`.
 * Used by scripts/generate-catalog.ts only.
 */

/** Namespaces that name the host, not the author. */
const HOST_NAMESPACES = [/^accounts\/fireworks\/models\//i, /^chutesai\//i];

const NAMESPACE_AUTHOR: Record<string, string> = {
  "deepseek-ai": "deepseek",
  qwen3: "qwen",
  meta: "meta-llama",
  "zai-org": "z-ai",
  thudm: "z-ai",
  xai: "x-ai",
  mistral: "mistralai",
};

const SLUG_AUTHOR: Array<[RegExp, string]> = [
  [/^(gpt-|o\d|codex|chatgpt|text-embedding|whisper)/, "openai"],
  [/^claude/, "anthropic"],
  [/^(gemini|gemma)/, "google"],
  [/^grok/, "x-ai"],
  [/^deepseek/, "deepseek"],
  [/^(mistral|mixtral|codestral|devstral|magistral|pixtral|ministral|open-mi[sx]tral)/, "mistralai"],
  [/^(llama|meta-llama)/, "meta-llama"],
  [/^(qwen|qwq)/, "qwen"],
  [/^kimi/, "moonshotai"],
  [/^glm/, "z-ai"],
  [/^phi-/, "microsoft"],
  [/^sonar/, "perplexity"],
  [/^mercury/, "inception"],
  [/^nova-/, "amazon"],
];

const QUANTIZATION_SUFFIX = /-(fp8|fp4|int8|int4|bf16|fp16)$/;

export type CanonicalName = { id: string; author: string; quantization: string | null };

/**
 * Bedrock's ids name the vendor before a dot and end in a version (`anthropic.claude-sonnet-4-20250514-v1:0`):
 * read as `anthropic/claude-sonnet-4-20250514`. An id that is nothing but a family and a version
 * (`anthropic.claude-v2:1`) keeps its version.
 */
function bedrockName(id: string): string {
  const dot = id.indexOf(".");
  if (dot <= 0) return id;
  const rest = id.slice(dot + 1);
  const unversioned = rest.replace(/-v\d+:\d+$/, "");
  return `${id.slice(0, dot)}/${/[-\d]/.test(unversioned) ? unversioned : rest}`;
}

/** Anthropic ids: `claude-3-7-sonnet-20250219` (Vertex AI: `claude-3-7-sonnet@20250219`) → `claude-3.7-sonnet`, as OpenRouter names them. */
function anthropicSlug(slug: string): string {
  return slug.replace(/[-@]\d{8}$/, "").replace(/(\d)-(\d)(?=$|-)/g, "$1.$2");
}

export function canonicalName(providerId: string, upstreamModel: string): CanonicalName {
  let raw = providerId === "amazon-bedrock" ? bedrockName(upstreamModel) : upstreamModel;
  for (const host of HOST_NAMESPACES) raw = raw.replace(host, "");
  const lower = raw.toLowerCase();
  const cut = lower.indexOf("/");
  const namespace = cut > 0 ? lower.slice(0, cut) : null;
  let slug = cut > 0 ? lower.slice(cut + 1) : lower;
  const author =
    FIRST_PARTY_AUTHOR[providerId] ?? (namespace ? (NAMESPACE_AUTHOR[namespace] ?? namespace) : (SLUG_AUTHOR.find(([re]) => re.test(slug))?.[1] ?? providerId));
  const quant = QUANTIZATION_SUFFIX.exec(slug);
  if (quant) slug = slug.slice(0, quant.index);
  if (author === "anthropic") slug = anthropicSlug(slug);
  slug = slug.replace(/[^a-z0-9._:~-]/g, "-");
  return { id: `${author}/${slug}`, author, quantization: quant ? quant[1]! : null };
}
