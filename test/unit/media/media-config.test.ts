import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { buildCatalog } from "../../../src/catalog/build-catalog";
import { loadConfig, parseGatewayFile } from "../../../src/config";
import { describeConfig } from "../../../src/config-describe";
import { planReload } from "../../../src/config-reload";
import { buildMediaCatalog, type MediaConfig } from "../../../src/media/build-media-catalog";
import { configError } from "../../support/config-error";

const YAML = `
catalog: { default: false }
providers:
  - { slug: chatty, api: openai-chat, base_url: "http://127.0.0.1:1/v1", api_key: k }
  - { slug: oai-img, name: OpenAI, api: openai-images, base_url: "http://127.0.0.1:2/v1/", api_key: i }
  - { slug: oai-audio, name: OpenAI, api: openai-audio, base_url: "http://127.0.0.1:3/v1", api_key: a }
  - { slug: cohere, name: Cohere, api: cohere-rerank, base_url: "http://127.0.0.1:4", api_key: c }
image_models:
  - id: openai/gpt-image-1
    name: "OpenAI: GPT Image 1"
    endpoints:
      - { provider: oai-img, model: gpt-image-1, supported_sizes: [1024x1024, 1536x1024], supported_qualities: [low, high], supported_output_formats: [png, webp], max_images: 4,
          background: true, allowed_passthrough_parameters: [moderation],
          pricing: { per_image: { "1024x1024/low": "0.011", "1024x1024/high": "0.167", "1536x1024/low": "0.016", "1536x1024/high": "0.25" } } }
speech_models:
  - id: openai/tts-1
    endpoints:
      - { provider: oai-audio, model: tts-1, voices: [alloy, coral], response_formats: [mp3, pcm], speed: true, pricing: { per_million_characters: "15" } }
transcription_models:
  - id: openai/whisper-1
    endpoints:
      - { provider: oai-audio, model: whisper-1, input_formats: [wav, mp3], max_duration_seconds: 1500, pricing: { per_minute: "0.006" } }
rerank_models:
  - id: cohere/rerank-v3.5
    endpoints:
      - { provider: cohere, model: rerank-v3.5, pricing: { per_search: "0.002" } }
`;

const mediaConfig = (yaml: string, env: Record<string, string> = {}): MediaConfig => {
  const file = parseGatewayFile(yaml, env);
  return {
    providers: file.providers ?? [],
    catalog: { default: file.catalog?.default ?? true },
    env,
    imageModels: file.image_models ?? [],
    speechModels: file.speech_models ?? [],
    transcriptionModels: file.transcription_models ?? [],
    rerankModels: file.rerank_models ?? [],
  };
};

describe("media models in gateway.yaml", () => {
  test("each list is served by its kind's providers, which chat routing never sees; prices become nanos per unit", () => {
    const config = mediaConfig(YAML);
    expect(
      buildCatalog({ ...config, models: [] })
        .providers()
        .map((p) => p.slug),
    ).toEqual(["chatty"]);
    const media = buildMediaCatalog(config, 1_700_000_000);
    const image = media.get("image", "openai/gpt-image-1")!.endpoints[0]!;
    expect([
      image.id,
      image.provider.baseUrl,
      image.sizes,
      image.qualities,
      image.outputFormats,
      image.maxImages,
      image.background,
      image.seed,
      image.passthrough,
    ]).toEqual(["oai-img/gpt-image-1", "http://127.0.0.1:2/v1", ["1024x1024", "1536x1024"], ["low", "high"], ["png", "webp"], 4, true, false, ["moderation"]]);
    expect(image.prices).toEqual({
      single: null,
      byVariant: { "1024x1024/low": 11_000_000, "1024x1024/high": 167_000_000, "1536x1024/low": 16_000_000, "1536x1024/high": 250_000_000 },
    });
    const speech = media.get("speech", "openai/tts-1")!.endpoints[0]!;
    expect([speech.voices, speech.responseFormats, speech.maxInputChars, speech.speed, speech.nanosPerCharacter]).toEqual([
      ["alloy", "coral"],
      ["mp3", "pcm"],
      4096,
      true,
      15_000,
    ]);
    const stt = media.get("transcription", "openai/whisper-1")!.endpoints[0]!;
    expect([stt.maxFileMb, stt.maxFileBytes, stt.maxDurationSeconds, stt.nanosPerSecond]).toEqual([25, 25 * 1024 * 1024, 1500, 100_000]);
    const rerank = media.get("rerank", "cohere/rerank-v3.5")!.endpoints[0]!;
    expect([rerank.maxDocuments, rerank.prices]).toEqual([1000, { perSearch: 2_000_000, per1kDocuments: 0 }]);
    expect(media.kindOf("openai/tts-1")).toBe("speech");
    expect(media.get("image", "openai/tts-1")).toBeUndefined();
  });

  test("what guardrails' data policy reads: the provider's zdr and data_collection (default: none, allow); an endpoint whose prices are all 0 is free", () => {
    const yaml = YAML.replace("api_key: a }", "api_key: a, zdr: true, data_collection: deny }")
      .replace('pricing: { per_million_characters: "15" }', 'pricing: { per_million_characters: "0" }')
      .replace('pricing: { per_search: "0.002" }', 'pricing: { per_1k_documents: "0" }');
    const media = buildMediaCatalog(mediaConfig(yaml), 1_700_000_000);
    const facts = (e: { provider: { zdr: boolean; dataCollection: string }; free: boolean }) => [e.provider.zdr, e.provider.dataCollection, e.free];
    expect([
      facts(media.get("image", "openai/gpt-image-1")!.endpoints[0]!),
      facts(media.get("speech", "openai/tts-1")!.endpoints[0]!),
      facts(media.get("transcription", "openai/whisper-1")!.endpoints[0]!),
      facts(media.get("rerank", "cohere/rerank-v3.5")!.endpoints[0]!),
    ]).toEqual([
      [false, "allow", false],
      [true, "deny", true],
      [true, "deny", false],
      [false, "allow", true],
    ]);
  });

  test("config check prints the lists as gateway.yaml spells them, and a reload takes them", () => {
    const path = `/tmp/media-config-${crypto.randomUUID()}.yaml`;
    writeFileSync(path, YAML);
    const config = loadConfig({ GATEWAY_CONFIG: path, DATABASE_URL: ":memory:" });
    const described = describeConfig(config);
    expect((described.image_models as Array<{ id: string }>).map((m) => m.id)).toEqual(["openai/gpt-image-1"]);
    expect((described.rerank_models as Array<{ id: string }>).map((m) => m.id)).toEqual(["cohere/rerank-v3.5"]);
    writeFileSync(path, YAML.replace("id: cohere/rerank-v3.5", "id: cohere/rerank-v4"));
    const reloaded = planReload(config, loadConfig({ GATEWAY_CONFIG: path, DATABASE_URL: ":memory:" }));
    expect(reloaded.config.rerankModels.map((m) => m.id)).toEqual(["cohere/rerank-v4"]);
    expect(reloaded.restartNeeded).toEqual([]);
  });

  test("refused at load: a provider of another kind, a per-image price missing a variant or naming an unknown one, no price, an id used twice, drop_params, a chat model on a media provider", () => {
    const yaml = `
catalog: { default: false }
providers:
  - { slug: chatty, api: openai-chat, base_url: "http://x/v1" }
  - { slug: img, api: openai-images, base_url: "http://y/v1", drop_params: [user] }
  - { slug: audio, api: openai-audio, base_url: "http://z/v1" }
models:
  - { id: a/chat, endpoints: [{ provider: img, model: m }] }
image_models:
  - id: a/img
    endpoints:
      - { provider: audio, model: m, supported_sizes: [1024x1024], supported_qualities: [low, high], pricing: { per_image: { "1024x1024/low": "0.01", "512x512/low": "0.01" } } }
speech_models:
  - { id: a/chat, endpoints: [{ provider: audio, model: tts, voices: [alloy], response_formats: [mp3], pricing: { per_million_characters: "15" } }] }
transcription_models:
  - { id: a/stt, endpoints: [{ provider: audio, model: w, input_formats: [wav], max_duration_seconds: 60, pricing: {} }] }
rerank_models:
  - { id: a/rr, endpoints: [{ provider: chatty, model: r, pricing: { per_search: "0.002", per_1k_documents: "0.05" } }] }
`;
    expect(configError(() => parseGatewayFile(yaml, {})).split("\n")).toEqual([
      `config error: providers[1].drop_params: expected no drop_params on a media provider (it applies to openai-chat, openai-responses and anthropic-messages) (got ["user"])`,
      `config error: models[0].endpoints[0].provider: expected a chat provider (this one's api is openai-images: it serves its media list only) (got "img")`,
      `config error: image_models[0].endpoints[0].provider: expected the slug of a provider under providers whose api is openai-images (got "audio")`,
      `config error: image_models[0].endpoints[0].pricing.per_image: expected a price for every variant of supported_sizes × supported_qualities (missing 1024x1024/high) (got {"1024x1024/low":"0.01","512x512/low":"0.01"})`,
      `config error: image_models[0].endpoints[0].pricing.per_image: expected only the variants 1024x1024/low, 1024x1024/high (not 512x512/low) (got {"1024x1024/low":"0.01","512x512/low":"0.01"})`,
      `config error: speech_models[0].id: expected a model id not used by another model of any list (got "a/chat")`,
      `config error: transcription_models[0].endpoints[0].pricing: expected exactly one of per_minute, per_second (got {})`,
      `config error: rerank_models[0].endpoints[0].provider: expected the slug of a provider under providers whose api is cohere-rerank (got "chatty")`,
      `config error: rerank_models[0].endpoints[0].pricing: expected exactly one of per_search, per_1k_documents (got {"per_search":"0.002","per_1k_documents":"0.05"})`,
    ]);
    expect(
      configError(() =>
        parseGatewayFile(`speech_models:\n  - { id: a/s, endpoints: [{ provider: p, model: m, voices: [], response_formats: [ogg], pricing: {} }] }\n`, {}),
      ).split("\n"),
    ).toEqual([
      "config error: speech_models[0].endpoints[0].voices: expected a list of at least 1 item (got [])",
      `config error: speech_models[0].endpoints[0].response_formats[0]: expected one of mp3, opus, aac, flac, wav, pcm (got "ogg")`,
      'config error: speech_models[0].endpoints[0].pricing.per_million_characters: expected a non-negative USD decimal string such as "0.000001"',
    ]);
  });

  test("the default entries: OpenAI's with OPENAI_API_KEY, Cohere's with COHERE_API_KEY; gateway.yaml replaces a model of the same id", () => {
    const none = buildMediaCatalog(mediaConfig("catalog: { default: true }\n"));
    expect(["image", "speech", "transcription", "rerank"].map((k) => none.models(k as "image").length)).toEqual([0, 0, 0, 0]);
    const openai = buildMediaCatalog(mediaConfig("catalog: { default: true }\n", { OPENAI_API_KEY: "sk-openai" }));
    expect(openai.models("image").map((m) => m.id)).toEqual(["openai/gpt-image-1", "openai/dall-e-3"]);
    expect(openai.models("speech").map((m) => m.id)).toEqual(["openai/tts-1", "openai/tts-1-hd"]);
    expect(openai.models("transcription").map((m) => m.id)).toEqual(["openai/whisper-1"]);
    expect(openai.models("rerank")).toEqual([]);
    const gptImage = openai.get("image", "openai/gpt-image-1")!.endpoints[0]!;
    expect([
      gptImage.provider.slug,
      gptImage.provider.apiKey,
      gptImage.provider.envVar,
      gptImage.provider.baseUrl,
      gptImage.prices.byVariant["1024x1024/medium"],
    ]).toEqual(["openai-images", "sk-openai", "OPENAI_API_KEY", "https://api.openai.com/v1", 42_000_000]);
    expect(openai.get("transcription", "openai/whisper-1")!.endpoints[0]!.nanosPerSecond).toBe(100_000);
    const cohere = buildMediaCatalog(mediaConfig("catalog: { default: true }\n", { COHERE_API_KEY: "co" }));
    expect(cohere.models("rerank").map((m) => [m.id, m.endpoints[0]!.provider.baseUrl, m.endpoints[0]!.prices.perSearch])).toEqual([
      ["cohere/rerank-v3.5", "https://api.cohere.com", 2_000_000],
      ["cohere/rerank-english-v3.0", "https://api.cohere.com", 2_000_000],
      ["cohere/rerank-multilingual-v3.0", "https://api.cohere.com", 2_000_000],
    ]);
    const replaced = buildMediaCatalog(
      mediaConfig(YAML.replace("catalog: { default: false }", "catalog: { default: true }"), { OPENAI_API_KEY: "sk", COHERE_API_KEY: "co" }),
    );
    expect(replaced.get("rerank", "cohere/rerank-v3.5")!.endpoints.map((e) => [e.id, e.provider.baseUrl, e.provider.apiKey])).toEqual([
      ["cohere/rerank-v3.5", "http://127.0.0.1:4", "c"],
    ]);
    expect(replaced.models("rerank").map((m) => m.id)).toEqual(["cohere/rerank-english-v3.0", "cohere/rerank-multilingual-v3.0", "cohere/rerank-v3.5"]);
    // without the default catalog, only gateway.yaml's
    expect(
      buildMediaCatalog(mediaConfig(YAML, { OPENAI_API_KEY: "sk" }))
        .models("image")
        .map((m) => m.id),
    ).toEqual(["openai/gpt-image-1"]);
  });
});
