// The configuration reference states defaults the loader does not write as `file.x?.y ?? value`
// (scripts/docs/config-descriptions.ts, OTHER_DEFAULTS): here each is checked against what the
// catalogs and the loader fill in for a gateway.yaml that leaves the key out.
import { expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OTHER_DEFAULTS } from "../../scripts/docs/config-descriptions";
import { generatedDocs } from "../../scripts/generate-docs";
import { buildCatalog } from "../../src/catalog/build-catalog";
import { loadConfig, parseGatewayFile } from "../../src/config";
import { buildMediaCatalog } from "../../src/media/build-media-catalog";
import type { ImageEndpoint, RerankEndpoint, SpeechEndpoint, TranscriptionEndpoint } from "../../src/media/media-catalog";

const YAML = `
catalog: { default: false }
providers:
  - { slug: az, api: azure-openai, base_url: "http://127.0.0.1:1", api_key: k }
  - { slug: vx, api: vertex, api_key: '{"type":"service_account","project_id":"p","private_key":"k","client_email":"e@p.iam.gserviceaccount.com","token_uri":"https://oauth2.googleapis.com/token"}' }
  - { slug: img, api: openai-images, base_url: "http://127.0.0.1:2/v1", api_key: i }
  - { slug: aud, api: openai-audio, base_url: "http://127.0.0.1:3/v1", api_key: a }
  - { slug: rr, api: cohere-rerank, base_url: "http://127.0.0.1:4", api_key: c }
models:
  - { id: a/chat, endpoints: [{ provider: az, model: m }] }
image_models:
  - { id: a/img, endpoints: [{ provider: img, model: m, supported_sizes: [1024x1024], pricing: { per_image: "0.01" } }] }
speech_models:
  - { id: a/tts, endpoints: [{ provider: aud, model: m, voices: [alloy], response_formats: [mp3], pricing: { per_million_characters: "15" } }] }
transcription_models:
  - { id: a/stt, endpoints: [{ provider: aud, model: m, input_formats: [wav], max_duration_seconds: 60, pricing: { per_minute: "0.006" } }] }
rerank_models:
  - { id: a/rr, endpoints: [{ provider: rr, model: m, pricing: { per_search: "0.002" } }] }
`;

/** What the code fills in for each key OTHER_DEFAULTS states, as gateway.yaml would spell it. */
function filledIn(): Record<string, unknown> {
  const file = parseGatewayFile(YAML, {});
  const providers = file.providers ?? [];
  const catalog = buildCatalog({ providers, models: file.models ?? [], catalog: { default: false }, env: {} });
  const provider = (slug: string) => catalog.providers().find((p) => p.slug === slug)!;
  const endpoint = catalog.getModel("a/chat")!.endpoints[0]!;
  const media = buildMediaCatalog({
    providers,
    catalog: { default: false },
    env: {},
    imageModels: file.image_models ?? [],
    speechModels: file.speech_models ?? [],
    transcriptionModels: file.transcription_models ?? [],
    rerankModels: file.rerank_models ?? [],
  });
  const image = media.get("image", "a/img")!.endpoints[0]! as ImageEndpoint;
  const cache = loadConfig({}).responseCache;
  // poll_max_ms: the larger of poll_initial_ms and 30000
  const pollMax = (initial: number) => {
    const path = join(tmpdir(), `gateway-defaults-${process.pid}-${initial}.yaml`);
    writeFileSync(path, `videos: { poll_initial_ms: ${initial} }\n`);
    try {
      return loadConfig({ GATEWAY_CONFIG: path }).videos.pollMaxMs;
    } finally {
      rmSync(path);
    }
  };
  return {
    "providers[].azure.api_version": provider("az").azure?.apiVersion,
    "providers[].zdr": provider("az").zdr,
    "providers[].data_collection": provider("az").dataCollection,
    "providers[].vertex.location": provider("vx").vertex?.location,
    "models[].context_length": catalog.getModel("a/chat")!.contextLength,
    "models[].endpoints[].supported_parameters": endpoint.supportedParameters,
    "image_models[].endpoints[].max_images": image.maxImages,
    "image_models[].endpoints[].supported_output_formats": image.outputFormats,
    "speech_models[].endpoints[].max_input_chars": (media.get("speech", "a/tts")!.endpoints[0]! as SpeechEndpoint).maxInputChars,
    "transcription_models[].endpoints[].max_file_mb": (media.get("transcription", "a/stt")!.endpoints[0]! as TranscriptionEndpoint).maxFileMb,
    "rerank_models[].endpoints[].max_documents": (media.get("rerank", "a/rr")!.endpoints[0]! as RerankEndpoint).maxDocuments,
    "videos.poll_max_ms": pollMax(5_000) === 30_000 && pollMax(45_000) === 45_000 ? "max(poll_initial_ms, 30000)" : "another rule",
    "response_cache.ttl_seconds": cache.ttlMs / 1000,
    "response_cache.default": cache.defaultOn ? "on" : "off",
  };
}

/** The Default cell of a key's row, as JSON where it is JSON. */
function statedDefault(page: string, key: string): unknown {
  const row = page.split("\n").find((line) => line.startsWith(`| \`${key}\` |`))!;
  const cell = row
    .split(/(?<!\\)\|/)[3]!
    .trim()
    .replace(/^`|`$/g, "");
  try {
    return JSON.parse(cell);
  } catch {
    return cell;
  }
}

test("every default the configuration reference states for a key the catalogs fill in is the one they fill in", async () => {
  const page = (await generatedDocs())["configuration.md"]!;
  const actual = filledIn();
  expect(Object.keys(actual).sort()).toEqual(Object.keys(OTHER_DEFAULTS).sort());
  for (const key of Object.keys(OTHER_DEFAULTS)) expect({ key, stated: statedDefault(page, key) }).toEqual({ key, stated: actual[key] });
});
