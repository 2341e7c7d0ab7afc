// Gateways with job workers in front of the loopback video API mocks, for the video e2e tests.
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { until } from "../../support/until";
import { type OpenAiVideoMock, startOpenAiVideoMock } from "../../support/video-mocks/openai-videos";
import { type ReplicateMock, startReplicateMock } from "../../support/video-mocks/replicate";

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

export type TwoEndpointHarness = { openai: OpenAiVideoMock; replicate: ReplicateMock; gw: TestGateway; key: string; close(): Promise<void> };

/**
 * One video model, google/veo-3.1, on two endpoints in order: the OpenAI-shaped mock at $1 a second,
 * then Replicate at $0.40. `extra` adds top-level configuration (routing:, say).
 */
export async function startTwoEndpointHarness(extra = ""): Promise<TwoEndpointHarness> {
  const openai = startOpenAiVideoMock();
  const replicate = startReplicateMock();
  const gw = await startTestGateway({
    env: { WORKERS: "1" },
    yaml: `
catalog: { default: false }
jobs: { poll_seconds: 0.05 }
videos: { poll_initial_ms: 40, poll_max_ms: 120, deadline_minutes: 1 }
providers:
  - { slug: openai, api: openai-videos, base_url: "${openai.url}", api_key: video-key }
  - { slug: replicate, api: replicate, base_url: "${replicate.baseUrl}", api_key: ${replicate.key} }
video_models:
  - id: google/veo-3.1
    endpoints:
      - { provider: openai, model: veo-relay, supported_durations: [8], pricing: { per_second: "1" } }
      - { provider: replicate, model: google/veo-3.1, supported_durations: [8], pricing: { per_second: "0.4" } }
${extra}`,
  });
  const { key } = await createInferenceKey(gw, { name: "two endpoints" });
  return {
    openai,
    replicate,
    gw,
    key,
    async close() {
      await gw.close();
      openai.stop();
      replicate.stop();
    },
  };
}

/** Submits a job to google/veo-3.1 and waits until it completes or fails. */
export async function runVeoJob(h: Pick<TwoEndpointHarness, "gw" | "key">): Promise<{ id: string; status: string; usage?: unknown }> {
  const res = await h.gw.api("/api/v1/videos", { method: "POST", key: h.key, json: { model: "google/veo-3.1", prompt: "waves" } });
  if (res.status !== 202) throw new Error(`submit answered ${res.status}: ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  return until(
    `video ${id} terminal`,
    async () => {
      const body = (await (await h.gw.api(`/api/v1/videos/${id}`, { key: h.key })).json()) as { status: string; usage?: unknown };
      return ["completed", "failed"].includes(body.status) ? { ...body, id } : undefined;
    },
    10_000,
  );
}
