// A gateway in front of two of each media upstream mock (A first, B second), driven through
// @openrouter/sdk 1.3.19, whose zod schemas validate every answer.

import { expect } from "bun:test";
import { OpenRouter } from "@openrouter/sdk";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type RerankMock, startRerankMock } from "../../support/media-mocks/cohere-rerank";
import { type AudioMock, startAudioMock } from "../../support/media-mocks/openai-audio";
import { type ImagesMock, startImagesMock } from "../../support/media-mocks/openai-images";

const GPT_IMAGE_PRICES = `{ "1024x1024/low": "0.011", "1024x1024/medium": "0.042", "1024x1024/high": "0.167", "1536x1024/low": "0.016", "1536x1024/medium": "0.063", "1536x1024/high": "0.25", "1024x1536/low": "0.016", "1024x1536/medium": "0.063", "1024x1536/high": "0.25" }`;

export const mediaYaml = (m: MediaMocks) => `
catalog: { default: false }
security: { allow_private_urls: true }
routing: { circuit_failures: 1000 }
providers:
  - { slug: openai, name: OpenAI, api: openai-images, base_url: "${m.imgA.url}", api_key: images-key }
  - { slug: img-b, name: Image Cloud B, api: openai-images, base_url: "${m.imgB.url}", api_key: images-key-b }
  - { slug: byok-img, name: BYOK Images, api: openai-images, base_url: "${m.imgA.url}" }
  - { slug: audio-a, name: Audio Cloud A, api: openai-audio, base_url: "${m.audioA.url}", api_key: audio-key }
  - { slug: audio-b, name: Audio Cloud B, api: openai-audio, base_url: "${m.audioB.url}", api_key: audio-key-b }
  - { slug: rerank-a, name: Rerank Cloud A, api: cohere-rerank, base_url: "${m.rerankA.url}", api_key: cohere-key }
  - { slug: rerank-b, name: Rerank Cloud B, api: cohere-rerank, base_url: "${m.rerankB.url}", api_key: cohere-key-b }
image_models:
  - id: openai/gpt-image-1
    name: "OpenAI: GPT Image 1"
    description: GPT Image through two providers
    endpoints:
      - { provider: openai, model: gpt-image-1, supported_sizes: [1024x1024, 1536x1024, 1024x1536], supported_qualities: [low, medium, high],
          supported_output_formats: [png, jpeg, webp], max_images: 4, background: true, seed: false, allowed_passthrough_parameters: [moderation],
          pricing: { per_image: ${GPT_IMAGE_PRICES} } }
      - { provider: img-b, model: gpt-image-1-b, supported_sizes: [1024x1024], supported_qualities: [low, medium, high], max_images: 2,
          pricing: { per_image: { "1024x1024/low": "0.02", "1024x1024/medium": "0.05", "1024x1024/high": "0.2" } } }
  - id: openai/dall-e-3
    endpoints:
      - { provider: openai, model: dall-e-3, supported_sizes: [1024x1024, 1792x1024], seed: true, pricing: { per_image: "0.04" } }
  - id: acme/byok-image
    endpoints:
      - { provider: byok-img, model: gpt-image-1, supported_sizes: [1024x1024], pricing: { per_image: "0.05" } }
speech_models:
  - id: openai/tts-1
    name: "OpenAI: TTS 1"
    endpoints:
      - { provider: audio-a, model: tts-1, voices: [alloy, coral, verse], response_formats: [mp3, pcm, wav], max_input_chars: 100, speed: true,
          allowed_passthrough_parameters: [instructions], pricing: { per_million_characters: "15" } }
      - { provider: audio-b, model: tts-1-b, voices: [alloy, coral], response_formats: [mp3, pcm], pricing: { per_million_characters: "30" } }
transcription_models:
  - id: openai/whisper-1
    name: "OpenAI: Whisper"
    endpoints:
      - { provider: audio-a, model: whisper-1, input_formats: [wav, mp3, flac], max_file_mb: 25, max_duration_seconds: 1500, pricing: { per_minute: "0.006" } }
      - { provider: audio-b, model: whisper-b, input_formats: [wav, mp3], max_duration_seconds: 600, pricing: { per_second: "0.0002" } }
  - id: acme/small-stt
    endpoints:
      - { provider: audio-a, model: small, input_formats: [wav], max_file_mb: 1, max_duration_seconds: 60, pricing: { per_second: "0.001" } }
rerank_models:
  - id: cohere/rerank-v3.5
    name: "Cohere: Rerank 3.5"
    endpoints:
      - { provider: rerank-a, model: rerank-v3.5, max_documents: 5, pricing: { per_search: "0.002" } }
      - { provider: rerank-b, model: rerank-b, pricing: { per_1k_documents: "0.05" } }
`;

export type MediaMocks = { imgA: ImagesMock; imgB: ImagesMock; audioA: AudioMock; audioB: AudioMock; rerankA: RerankMock; rerankB: RerankMock };

export type MediaHarness = MediaMocks & { gw: TestGateway; key: string; keyHash: string; sdk: OpenRouter; close(): Promise<void> };

export function sdkOf(gw: TestGateway, apiKey: string): OpenRouter {
  return new OpenRouter({ apiKey, serverURL: `${gw.url}/api/v1`, retryConfig: { strategy: "none" } });
}

/** The six upstream mocks mediaYaml points at. */
export const startMediaMocks = (): MediaMocks => ({
  imgA: startImagesMock("images-key"),
  imgB: startImagesMock("images-key-b"),
  audioA: startAudioMock("audio-key"),
  audioB: startAudioMock("audio-key-b"),
  rerankA: startRerankMock("cohere-key"),
  rerankB: startRerankMock("cohere-key-b"),
});

/** `yaml`: the configuration as this test wants it (default: mediaYaml). */
export async function startMediaHarness(opts: { env?: Record<string, string>; yaml?: (m: MediaMocks) => string } = {}): Promise<MediaHarness> {
  const mocks = startMediaMocks();
  const gw = await startTestGateway({ yaml: (opts.yaml ?? mediaYaml)(mocks), env: opts.env });
  const { key, hash } = await createInferenceKey(gw, { name: "media key" });
  return {
    ...mocks,
    gw,
    key,
    keyHash: hash,
    sdk: sdkOf(gw, key),
    async close() {
      await gw.close();
      for (const m of Object.values(mocks)) m.stop();
    },
  };
}

/** The key's usage in USD, as GET /api/v1/key reports it. */
export async function keyUsage(gw: TestGateway, key: string): Promise<number> {
  const res = await gw.api("/api/v1/key", { key });
  return ((await res.json()) as { data: { usage: number } }).data.usage;
}

/** GET /api/v1/generation?id= as the key that made it. */
export async function generationOf(gw: TestGateway, key: string, id: string): Promise<Record<string, any>> {
  const res = await gw.api(`/api/v1/generation?id=${encodeURIComponent(id)}`, { key });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Record<string, any> }).data;
}

/** The error body of a raw call, with its status. */
export async function errorOf(res: Response): Promise<{ status: number; error: { code: number; message: string; metadata?: Record<string, unknown> } }> {
  return { status: res.status, ...((await res.json()) as { error: { code: number; message: string; metadata?: Record<string, unknown> } }) };
}

/** Nothing reached any upstream mock. */
export const upstreamCalls = (m: MediaMocks): number =>
  [m.imgA, m.imgB, m.audioA, m.audioB, m.rerankA, m.rerankB].reduce((n, mock) => n + mock.calls.length, 0);
