// Endpoints in order: the first provider (OpenAI-shaped) keeps answering 503 to the create, so the
// job goes to the second (Replicate), completes there, and is charged at the second's prices.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { startOpenAiVideoMock, type OpenAiVideoMock } from "../../support/video-mocks/openai-videos";
import { startReplicateMock, type ReplicateMock } from "../../support/video-mocks/replicate";
import { VIDEO_BYTES } from "../../support/video-mocks/mock-server";
import { until } from "../../support/until";

let openai: OpenAiVideoMock;
let replicate: ReplicateMock;
let gw: TestGateway;
let key: string;

beforeAll(async () => {
  openai = startOpenAiVideoMock();
  replicate = startReplicateMock();
  gw = await startTestGateway({
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
`,
  });
  key = (await createInferenceKey(gw, { name: "fallback" })).key;
});
afterAll(async () => {
  await gw.close();
  openai.stop();
  replicate.stop();
});

test("a 503 from the first endpoint sends the job to the second, which completes it", async () => {
  openai.createErrors = [503, 503, 503, 503, 503, 503];
  const res = await gw.api("/api/v1/videos", { method: "POST", key, json: { model: "google/veo-3.1", prompt: "waves" } });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  const done = await until("completed", async () => {
    const body = (await (await gw.api(`/api/v1/videos/${id}`, { key })).json()) as { status: string; usage?: unknown };
    return ["completed", "failed"].includes(body.status) ? body : undefined;
  }, 10_000);
  expect(done).toMatchObject({ status: "completed", usage: { cost: 3.2, is_byok: false } });
  expect(openai.creates.length).toBe(1);
  expect([...replicate.predictions.values()].map((p) => p.model)).toEqual(["google/veo-3.1"]);
  const bytes = new Uint8Array(await (await gw.api(`/api/v1/videos/${id}/content`, { key })).arrayBuffer());
  expect(Buffer.compare(Buffer.from(bytes), Buffer.from(VIDEO_BYTES))).toBe(0);
});
