// A gateway with job workers in front of the loopback OpenAI-shaped Videos API, for the video e2e tests.
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { startOpenAiVideoMock, type OpenAiVideoMock } from "../../support/video-mocks/openai-videos";

/** $0.10 per second, $0.15 with audio, $0.01 per video */
export const videoYaml = (url: string, extra = "") => `
catalog: { default: false }
security: { allow_private_urls: true }
jobs: { poll_seconds: 0.05, backoff_seconds: [0.1, 0.1, 0.1] }
videos: { poll_initial_ms: 40, poll_max_ms: 120, deadline_minutes: 0.05, retention_days: 1 }
providers:
  - { slug: openai, name: OpenAI Videos, api: openai-videos, base_url: "${url}", api_key: video-key }
  - { slug: keyless, api: openai-videos, base_url: "${url}" }
video_models:
  - id: openai/sora-2
    name: "OpenAI: Sora 2"
    description: Sora 2 through an OpenAI-shaped Videos API
    endpoints:
      - provider: openai
        model: sora-2
        supported_durations: [4, 8, 12]
        supported_resolutions: [720p]
        supported_aspect_ratios: ["16:9", "9:16"]
        supported_sizes: [1280x720, 720x1280]
        generate_audio: true
        seed: false
        allowed_passthrough_parameters: [quality]
        pricing: { per_second: "0.1", per_second_audio: "0.15", per_video: "0.01" }
  - id: acme/no-key
    endpoints:
      - { provider: keyless, model: m, supported_durations: [4] }
${extra}`;

export type VideoHarness = { up: OpenAiVideoMock; gw: TestGateway; key: string; keyHash: string; workspaceId: string; close(): Promise<void> };

export async function startVideoHarness(): Promise<VideoHarness> {
  const up = startOpenAiVideoMock();
  const gw = await startTestGateway({ yaml: videoYaml(up.url), env: { WORKERS: "1" } });
  const { key, hash, data } = await createInferenceKey(gw, { name: "video key" });
  return {
    up,
    gw,
    key,
    keyHash: hash,
    workspaceId: data.workspace_id,
    async close() {
      await gw.close();
      up.stop();
    },
  };
}
