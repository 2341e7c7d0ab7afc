// The shape a video request asks for, against models of several endpoints: which endpoints stay
// candidates, which size the size-only ones are sent, and the 400s.
import { describe, expect, test } from "bun:test";
import { parseGatewayFile } from "../../../src/config";
import { GatewayError } from "../../../src/errors";
import type { VideoGenerationRequestBody } from "../../../src/modules/videos/model";
import { openAiVideosAdapter } from "../../../src/videos/adapters/openai-videos";
import { validateVideoRequest } from "../../../src/videos/validate-request";
import { buildVideoCatalog } from "../../../src/videos/video-catalog";

const YAML = `
providers:
  - { slug: a, api: openai-videos, base_url: "http://127.0.0.1:1/v1", api_key: k }
  - { slug: b, api: openai-videos, base_url: "http://127.0.0.1:2/v1", api_key: k }
  - { slug: fal, api: fal-queue, base_url: "http://127.0.0.1:3", api_key: k }
video_models:
  - id: x/two-sizes
    endpoints:
      - { provider: a, model: m, supported_durations: [4], supported_aspect_ratios: ["16:9"], supported_resolutions: [720p], supported_sizes: [1280x720] }
      - { provider: b, model: m, supported_durations: [4, 8], supported_aspect_ratios: ["16:9"], supported_resolutions: [1080p], supported_sizes: [1920x1080] }
  - id: x/mixed
    endpoints:
      - { provider: a, model: m, supported_durations: [4], supported_aspect_ratios: ["16:9", "1:1"], supported_resolutions: [720p], supported_sizes: [1280x720] }
      - { provider: fal, model: fal-ai/m, supported_durations: [4], supported_aspect_ratios: ["16:9", "1:1"], supported_resolutions: [720p] }
  - id: x/unlisted
    endpoints:
      - { provider: a, model: m, supported_durations: [4], supported_aspect_ratios: ["16:9", "9:16", "1:1"], supported_resolutions: [720p, 1080p, 2K] }
`;
const catalog = buildVideoCatalog({ providers: parseGatewayFile(YAML, {}).providers!, videoModels: parseGatewayFile(YAML, {}).video_models! }, 0);

function validate(model: string, body: Omit<VideoGenerationRequestBody, "model" | "prompt">) {
  const m = catalog.get(model)!;
  const checked = validateVideoRequest({ model, prompt: "p", ...body }, m, m.endpoints);
  return { derivedSize: checked.params.derivedSize, size: checked.params.size, candidates: checked.candidates.map((e) => e.id) };
}
function refusal(model: string, body: Omit<VideoGenerationRequestBody, "model" | "prompt">) {
  try {
    validate(model, body);
  } catch (err) {
    if (err instanceof GatewayError) return { status: err.status, message: err.message, metadata: err.metadata };
    throw err;
  }
  throw new Error("not refused");
}

describe("size-only endpoints", () => {
  test("one size for every candidate, 720p preferred; an endpoint without it is no candidate", () => {
    expect(validate("x/two-sizes", { aspect_ratio: "16:9" })).toEqual({ derivedSize: "1280x720", size: undefined, candidates: ["a/m"] });
    expect(validate("x/two-sizes", { aspect_ratio: "16:9", resolution: "1080p" })).toEqual({ derivedSize: "1920x1080", size: undefined, candidates: ["b/m"] });
    // an asked size is sent as it is, never derived
    expect(validate("x/two-sizes", { size: "1920x1080" })).toEqual({ derivedSize: undefined, size: "1920x1080", candidates: ["b/m"] });
    expect(validate("x/two-sizes", {})).toEqual({ derivedSize: undefined, size: undefined, candidates: ["a/m", "b/m"] });
  });

  test("the size is derived over the endpoints that take the rest of the request", () => {
    // a/m takes no 8 s video: b/m's 1920x1080 is the size (a/m's 720p would leave no candidate)
    expect(validate("x/two-sizes", { aspect_ratio: "16:9", duration: 8 })).toEqual({ derivedSize: "1920x1080", size: undefined, candidates: ["b/m"] });
  });

  test("an endpoint listing no sizes makes OpenAI's: 1:1 and 2K are not advertised, 9:16 at 1080p is 1080x1920", () => {
    const capabilities = catalog.get("x/unlisted")!.endpoints[0]!.capabilities;
    expect([capabilities.aspectRatios, capabilities.resolutions]).toEqual([
      ["16:9", "9:16"],
      ["720p", "1080p"],
    ]);
    expect(validate("x/unlisted", { aspect_ratio: "9:16", resolution: "1080p" }).derivedSize).toBe("1080x1920");
    expect(refusal("x/unlisted", { aspect_ratio: "1:1" })).toEqual({
      status: 400,
      message: 'aspect_ratio "1:1" is not supported by x/unlisted; allowed values: 16:9, 9:16',
      metadata: { field: "aspect_ratio", allowed: ["16:9", "9:16"] },
    });
  });
});

test("a ratio only the aspect-ratio API endpoint makes leaves it the one candidate", () => {
  expect(validate("x/mixed", { aspect_ratio: "1:1", resolution: "720p" })).toEqual({ derivedSize: undefined, size: undefined, candidates: ["fal/fal-ai/m"] });
  expect(validate("x/mixed", { aspect_ratio: "16:9" })).toEqual({ derivedSize: "1280x720", size: undefined, candidates: ["a/m", "fal/fal-ai/m"] });
});

test("the OpenAI-shaped adapter refuses a ratio no size of its own makes rather than sending none (a job stored before sizes were derived)", async () => {
  const target = { baseUrl: "http://127.0.0.1:1/v1", apiKey: "k", model: "m", headers: {} };
  const outcome = await openAiVideosAdapter.submit(
    target,
    { prompt: "p", aspectRatio: "1:1", resolution: "720p", passthrough: {} },
    new AbortController().signal,
  );
  expect(outcome).toEqual({ kind: "failed", code: "invalid_request", message: "no size of this upstream has aspect_ratio 1:1 at resolution 720p" });
});
