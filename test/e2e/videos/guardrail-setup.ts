// Video models for the guardrail tests: providers that differ in what guardrails judge, all in
// front of one loopback OpenAI-shaped Videos mock. The upstream model of each endpoint says which
// provider served a create (`up.creates[i].model`).
import { startTestGateway, type TestGateway, type TestGatewayOptions } from "../../support/gateway";
import { createTestDatabase } from "../../support/postgres";
import { until } from "../../support/until";
import { type OpenAiVideoMock, startOpenAiVideoMock } from "../../support/video-mocks/openai-videos";

const ENDPOINT = `supported_durations: [4, 8, 12], pricing: { per_second: "0.1", per_video: "0.01" }`;

/**
 * `leakvid` may keep data (the default data_collection), `zdrvid` keeps none; openai/sora-2 is on
 * both (leakvid first), acme/clip on leakvid only, acme/free-clip too, priced 0. A 4 s video costs
 * $0.41, 8 s $0.81, 12 s $1.21.
 */
export const guardedVideoYaml = (url: string) => `
catalog: { default: false }
jobs: { poll_seconds: 0.05, backoff_seconds: [0.1, 0.1, 0.1] }
videos: { poll_initial_ms: 40, poll_max_ms: 120, deadline_minutes: 1, retention_days: 1 }
providers:
  - { slug: leakvid, name: Leaky Video, api: openai-videos, base_url: "${url}", api_key: video-key }
  - { slug: zdrvid, name: ZDR Video, api: openai-videos, base_url: "${url}", api_key: video-key, zdr: true, data_collection: deny }
video_models:
  - id: openai/sora-2
    endpoints:
      - { provider: leakvid, model: sora-leaky, ${ENDPOINT} }
      - { provider: zdrvid, model: sora-zdr, ${ENDPOINT} }
  - id: acme/clip
    endpoints:
      - { provider: leakvid, model: clip-up, ${ENDPOINT} }
  - id: acme/free-clip
    endpoints:
      - { provider: leakvid, model: free-up, supported_durations: [4] }
`;

export type GuardedVideoHarness = { up: OpenAiVideoMock; gw: TestGateway; close(): Promise<void> };

/** The gateway with one job worker thread (jobs settle there, as in production) before the mock. */
export async function startGuardedVideoHarness(env: TestGatewayOptions["env"] = {}): Promise<GuardedVideoHarness> {
  const up = startOpenAiVideoMock({ bytes: 1_000 });
  const gw = await startTestGateway({ yaml: guardedVideoYaml(up.url), env: { WORKERS: "1", ...env } });
  return {
    up,
    gw,
    async close() {
      await gw.close();
      up.stop();
    },
  };
}

export const submitVideo = (gw: TestGateway, key: string, json: Record<string, unknown>) => gw.api("/api/v1/videos", { method: "POST", key, json });

export type VideoStatus = { id: string; status: string; generation_id: string; usage?: { cost: number }; error?: string };

/** Polls a job until it is completed or failed. */
export function videoTerminal(gw: TestGateway, key: string, id: string, timeoutMs = 15_000): Promise<VideoStatus> {
  return until(
    `video ${id} terminal`,
    async () => {
      const body = (await (await gw.api(`/api/v1/videos/${id}`, { key })).json()) as VideoStatus;
      return ["completed", "failed"].includes(body.status) ? body : undefined;
    },
    timeoutMs,
    20,
  );
}

/** Where a scenario's gateway keeps its state: the environment that names it, dropped after the gateway closed. */
export type ScenarioDatabase = () => Promise<{ env: Record<string, string>; drop(): Promise<void> }>;

/** A PostgreSQL database of its own for a scenario. */
export const postgresDatabase: ScenarioDatabase = async () => {
  const db = await createTestDatabase();
  return { env: { DATABASE_URL: db.url, GATEWAY_SECRET_KEY: "d".repeat(64) }, drop: () => db.drop() };
};
