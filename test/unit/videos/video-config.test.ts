import { describe, expect, test } from "bun:test";
import { buildCatalog } from "../../../src/catalog/build-catalog";
import { loadConfig, parseGatewayFile } from "../../../src/config";
import { describeConfig } from "../../../src/config-describe";
import { buildVideoCatalog } from "../../../src/videos/video-catalog";
import { configError } from "../../support/config-error";

const YAML = `
providers:
  - { slug: chatty, api: openai-chat, base_url: "http://127.0.0.1:1/v1", api_key: k }
  - { slug: sora, api: openai-videos, base_url: "http://127.0.0.1:2/v1/", api_key: v }
video_models:
  - id: openai/sora-2
    name: "OpenAI: Sora 2"
    endpoints:
      - provider: sora
        model: sora-2
        supported_durations: [4, 8, 12]
        supported_resolutions: [720p]
        supported_aspect_ratios: ["16:9", "9:16"]
        supported_sizes: [1280x720, 720x1280]
        generate_audio: true
        allowed_passthrough_parameters: [quality]
        pricing: { per_second: "0.1", per_second_audio: "0.15", per_video: "0.01" }
videos: { poll_initial_ms: 100, poll_max_ms: 400, deadline_minutes: 2, retention_days: 1 }
`;

describe("video models in gateway.yaml", () => {
  test("a video provider serves video_models only: chat routing never sees it", () => {
    const file = parseGatewayFile(YAML, {});
    const config = { providers: file.providers!, models: file.models ?? [], videoModels: file.video_models! };
    expect(
      buildCatalog(config)
        .providers()
        .map((p) => p.slug),
    ).toEqual(["chatty"]);
    const videos = buildVideoCatalog(config, 1_700_000_000);
    const model = videos.get("openai/sora-2")!;
    expect(model.endpoints.map((e) => [e.id, e.provider.api, e.provider.baseUrl, e.upstreamModel])).toEqual([
      ["sora/sora-2", "openai-videos", "http://127.0.0.1:2/v1", "sora-2"],
    ]);
    expect(model.endpoints[0]!.prices).toEqual({ perSecond: 100_000_000, perSecondAudio: 150_000_000, perVideo: 10_000_000 });
    expect(model.endpoints[0]!.capabilities).toEqual({
      durations: [4, 8, 12],
      resolutions: ["720p"],
      aspectRatios: ["16:9", "9:16"],
      sizes: ["1280x720", "720x1280"],
      frameImages: [],
      inputReferences: false,
      generateAudio: true,
      seed: false,
      passthrough: ["quality"],
    });
  });

  test("the videos section, with defaults", () => {
    const dir = `/tmp/video-config-${crypto.randomUUID()}`;
    const path = `${dir}.yaml`;
    require("node:fs").writeFileSync(path, YAML);
    const config = loadConfig({ GATEWAY_CONFIG: path, DATABASE_URL: ":memory:" });
    expect(config.videos).toEqual({ pollInitialMs: 100, pollMaxMs: 400, deadlineMs: 120_000, retentionMs: 86_400_000 });
    // config check prints it as gateway.yaml spells it
    const described = describeConfig(config);
    expect(described.videos).toEqual({ poll_initial_ms: 100, poll_max_ms: 400, deadline_minutes: 2, retention_days: 1 });
    expect((described.video_models as Array<{ id: string }>).map((m) => m.id)).toEqual(["openai/sora-2"]);
    require("node:fs").writeFileSync(path, "catalog: { default: false }\n");
    expect(loadConfig({ GATEWAY_CONFIG: path, DATABASE_URL: ":memory:" }).videos).toEqual({
      pollInitialMs: 5_000,
      pollMaxMs: 30_000,
      deadlineMs: 3_600_000,
      retentionMs: 604_800_000,
    });
  });

  test("a chat model on a video provider, a video model on a chat provider, and a bad capability are named", () => {
    const yaml = `
catalog: { default: false }
providers:
  - { slug: chatty, api: openai-chat, base_url: "http://x/v1" }
  - { slug: sora, api: openai-videos, base_url: "http://y/v1" }
models:
  - { id: a/chat, endpoints: [{ provider: sora, model: m }] }
video_models:
  - { id: a/vid, endpoints: [{ provider: chatty, model: m, supported_durations: [4] }] }
  - { id: a/vid2, endpoints: [{ provider: sora, model: m, supported_durations: [4], supported_resolutions: [999p] }] }
`;
    expect(configError(() => parseGatewayFile(yaml, {})).split("\n")).toEqual([
      `config error: video_models[1].endpoints[0].supported_resolutions[0]: expected one of 360p, 480p, 720p, 768p, 1080p, 1K, 2K, 4K (got "999p")`,
    ]);
    expect(configError(() => parseGatewayFile(yaml.replace("supported_resolutions: [999p]", "supported_resolutions: [720p]"), {})).split("\n")).toEqual([
      `config error: models[0].endpoints[0].provider: expected a chat provider (this one serves video_models only) (got "sora")`,
      `config error: video_models[0].endpoints[0].provider: expected the slug of a provider under providers whose api is openai-videos, fal-queue, replicate or gemini-veo (got "chatty")`,
    ]);
  });
});
