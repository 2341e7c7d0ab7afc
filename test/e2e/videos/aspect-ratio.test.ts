// Every aspect ratio a model's configuration lists reaches the upstream in the fields its API
// names the shape with: a size the endpoint lists (OpenAI shape; 1:1 at 720p is 720x720, never
// no size at all), aspect ratio + resolution (fal, Veo: a size becomes them), or as given
// (Replicate). A shape no endpoint can make is a 400 naming the field, and nothing goes up.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { until } from "../../support/until";
import { type FalQueueMock, startFalQueueMock } from "../../support/video-mocks/fal-queue";
import { type GeminiVeoMock, startGeminiVeoMock } from "../../support/video-mocks/gemini-veo";
import { type OpenAiVideoMock, startOpenAiVideoMock } from "../../support/video-mocks/openai-videos";
import { type ReplicateMock, startReplicateMock } from "../../support/video-mocks/replicate";

let openai: OpenAiVideoMock;
let fal: FalQueueMock;
let veo: GeminiVeoMock;
let replicate: ReplicateMock;
let gw: TestGateway;
let key: string;

const RATIOS = {
  openai: ["1:1", "16:9", "9:16"],
  fal: ["16:9", "9:16", "1:1"],
  veo: ["16:9", "9:16"],
  replicate: ["16:9", "9:16", "1:1"],
};
const list = (xs: readonly string[]) => `[${xs.map((x) => JSON.stringify(x)).join(", ")}]`;

beforeAll(async () => {
  openai = startOpenAiVideoMock({ bytes: 10 });
  fal = startFalQueueMock();
  veo = startGeminiVeoMock();
  replicate = startReplicateMock();
  gw = await startTestGateway({
    env: { WORKERS: "1" },
    yaml: `
catalog: { default: false }
security: { allow_private_urls: true }
jobs: { poll_seconds: 0.05 }
videos: { poll_initial_ms: 40, poll_max_ms: 120, deadline_minutes: 1 }
providers:
  - { slug: openai, api: openai-videos, base_url: "${openai.url}", api_key: video-key }
  - { slug: fal, api: fal-queue, base_url: "${fal.url}", api_key: ${fal.key} }
  - { slug: gemini, api: gemini-veo, base_url: "${veo.baseUrl}", api_key: ${veo.key} }
  - { slug: replicate, api: replicate, base_url: "${replicate.baseUrl}", api_key: ${replicate.key} }
video_models:
  - id: openai/square
    endpoints:
      - { provider: openai, model: sora-2, supported_durations: [4], supported_resolutions: [720p], supported_aspect_ratios: ${list(RATIOS.openai)}, supported_sizes: [720x720, 1280x720, 720x1280] }
  - id: openai/no-square
    endpoints:
      - { provider: openai, model: sora-2, supported_durations: [4], supported_resolutions: [720p], supported_aspect_ratios: ["1:1", "16:9", "9:16"], supported_sizes: [1280x720, 720x1280] }
  - id: openai/tiers
    endpoints:
      - { provider: openai, model: sora-2, supported_durations: [4], supported_resolutions: [720p, 1080p], supported_aspect_ratios: ["1:1", "16:9"], supported_sizes: [720x720, 1920x1080] }
  - id: fal/veo3.1
    endpoints:
      - { provider: fal, model: fal-ai/veo3.1, supported_durations: [8], supported_resolutions: [720p, 1080p], supported_aspect_ratios: ${list(RATIOS.fal)}, supported_sizes: [1280x720, 720x1280, 720x720] }
  - id: fal/landscape
    endpoints:
      - { provider: fal, model: fal-ai/veo3.1, supported_durations: [8], supported_resolutions: [720p], supported_aspect_ratios: ["16:9"], supported_sizes: [1280x720, 720x720] }
  - id: google/veo-3.1
    endpoints:
      - { provider: gemini, model: veo-3.1-generate-preview, supported_durations: [8], supported_resolutions: [720p, 1080p], supported_aspect_ratios: ${list(RATIOS.veo)}, supported_sizes: [1280x720, 720x1280, 1920x1080, 1080x1920] }
  - id: wan/wan-2.5
    endpoints:
      - { provider: replicate, model: wan-video/wan-2.5-t2v, supported_durations: [5], supported_resolutions: [480p, 720p], supported_aspect_ratios: ${list(RATIOS.replicate)} }
`,
  });
  key = (await createInferenceKey(gw, { name: "shapes" })).key;
});
afterAll(async () => {
  await gw.close();
  for (const mock of [openai, fal, veo, replicate]) mock.stop();
});

const post = (json: Record<string, unknown>) => gw.api("/api/v1/videos", { method: "POST", key, json: { prompt: "a lighthouse", ...json } });

/** Submits and returns what the upstream's create received, once the job worker has sent it. */
async function sent<T>(json: Record<string, unknown>, creates: () => readonly T[]): Promise<T> {
  const before = creates().length;
  const res = await post(json);
  expect(res.status).toBe(202);
  return until(`the create of ${JSON.stringify(json)}`, () => creates()[before], 10_000);
}
const openAiCreates = () => openai.creates;
type Recording = { requests: ReadonlyArray<{ method: string; path: string; body: unknown }> };
// the mocks start in beforeAll: read them when asked
const bodiesOf = (mock: () => Recording, path: RegExp) => () =>
  mock()
    .requests.filter((r) => r.method === "POST" && path.test(r.path))
    .map((r) => r.body as Record<string, any>);
const falCreates = bodiesOf(() => fal, /^\/fal-ai\/veo3\.1$/);
const veoCreates = bodiesOf(() => veo, /:predictLongRunning$/);
const replicateCreates = bodiesOf(() => replicate, /\/predictions$/);

describe("each aspect ratio the configuration lists reaches the upstream", () => {
  const OPENAI_SIZE: Record<string, string> = { "1:1": "720x720", "16:9": "1280x720", "9:16": "720x1280" };
  test.each(RATIOS.openai)("openai-videos: %s at 720p is the size of that ratio", async (ratio) => {
    const create = await sent({ model: "openai/square", aspect_ratio: ratio, resolution: "720p" }, openAiCreates);
    expect(create).toEqual({ model: "sora-2", prompt: "a lighthouse", seconds: "4", size: OPENAI_SIZE[ratio]! });
  });
  test.each(RATIOS.fal)("fal-queue: %s at 720p is aspect_ratio + resolution", async (ratio) => {
    const body = await sent({ model: "fal/veo3.1", aspect_ratio: ratio, resolution: "720p" }, falCreates);
    expect(body).toEqual({ prompt: "a lighthouse", duration: "8s", aspect_ratio: ratio, resolution: "720p", generate_audio: false });
  });
  test.each(RATIOS.veo)("gemini-veo: %s at 720p is aspectRatio + resolution", async (ratio) => {
    const body = await sent({ model: "google/veo-3.1", aspect_ratio: ratio, resolution: "720p" }, veoCreates);
    expect(body).toEqual({ instances: [{ prompt: "a lighthouse" }], parameters: { aspectRatio: ratio, resolution: "720p", durationSeconds: 8 } });
  });
  test.each(RATIOS.replicate)("replicate: %s at 720p goes as given", async (ratio) => {
    const body = await sent({ model: "wan/wan-2.5", aspect_ratio: ratio, resolution: "720p" }, replicateCreates);
    expect(body).toEqual({ input: { prompt: "a lighthouse", duration: 5, aspect_ratio: ratio, resolution: "720p", generate_audio: false } });
  });
});

describe("the reverse: a resolution or size without a ratio", () => {
  test("openai-videos: a ratio alone, a resolution alone (16:9 preferred) and a size alone each send one listed size", async () => {
    expect((await sent({ model: "openai/square", aspect_ratio: "1:1" }, openAiCreates)).size).toBe("720x720");
    expect((await sent({ model: "openai/square", resolution: "720p" }, openAiCreates)).size).toBe("1280x720");
    expect((await sent({ model: "openai/square", size: "720x1280" }, openAiCreates)).size).toBe("720x1280");
    expect((await sent({ model: "openai/tiers", aspect_ratio: "16:9", resolution: "1080p" }, openAiCreates)).size).toBe("1920x1080");
  });
  test("fal-queue and gemini-veo: a size becomes its ratio and resolution", async () => {
    expect(await sent({ model: "fal/veo3.1", size: "720x720" }, falCreates)).toMatchObject({ aspect_ratio: "1:1", resolution: "720p" });
    expect((await sent({ model: "google/veo-3.1", size: "1080x1920" }, veoCreates)).parameters).toEqual({
      aspectRatio: "9:16",
      resolution: "1080p",
      durationSeconds: 8,
    });
  });
});

describe("a shape no endpoint makes is a 400, and nothing goes up", () => {
  const refused = async (json: Record<string, unknown>) => {
    const before = [openai.creates.length, falCreates().length];
    const res = await post(json);
    const body = await res.json();
    expect([openai.creates.length, falCreates().length]).toEqual(before);
    return { status: res.status, body };
  };
  const error = (message: string, field: string, allowed: string[]) => ({ status: 400, body: { error: { code: 400, message, metadata: { field, allowed } } } });

  test("a ratio the configuration lists but no size of the endpoint has: not advertised, and refused", async () => {
    expect(await refused({ model: "openai/no-square", aspect_ratio: "1:1", resolution: "720p" })).toEqual(
      error('aspect_ratio "1:1" is not supported by openai/no-square; allowed values: 16:9, 9:16', "aspect_ratio", ["16:9", "9:16"]),
    );
    const models = (await (await gw.api("/api/v1/videos/models")).json()) as { data: Array<{ id: string; supported_aspect_ratios: string[] }> };
    expect(models.data.find((m) => m.id === "openai/no-square")!.supported_aspect_ratios).toEqual(["16:9", "9:16"]);
  });

  test("a ratio and resolution each listed, but no size has both", async () => {
    expect(await refused({ model: "openai/tiers", aspect_ratio: "1:1", resolution: "1080p" })).toEqual(
      error('aspect_ratio "1:1" is not supported by openai/tiers at resolution 1080p; allowed values: 16:9', "aspect_ratio", ["16:9"]),
    );
  });

  test("a size that disagrees with the ratio or resolution asked", async () => {
    expect(await refused({ model: "openai/square", size: "1280x720", aspect_ratio: "1:1" })).toEqual(
      error('aspect_ratio "1:1" does not match size 1280x720; allowed values: 16:9', "aspect_ratio", ["16:9"]),
    );
    expect(await refused({ model: "openai/tiers", size: "1920x1080", resolution: "720p" })).toEqual(
      error('resolution "720p" does not match size 1920x1080; allowed values: 1080p', "resolution", ["1080p"]),
    );
  });

  test("a size whose ratio an aspect-ratio API endpoint does not list", async () => {
    expect(await refused({ model: "fal/landscape", size: "720x720" })).toEqual(
      error('size "720x720" is not supported by fal/landscape; allowed values: 1280x720', "size", ["1280x720"]),
    );
  });
});
