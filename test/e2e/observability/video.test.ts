// A finished video generation is forwarded (operation "video", no output) and its prompt kept by
// I/O logging, from the job worker that finishes it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Destination, ObservedGeneration } from "../../../src/observability/contract";
import { createInferenceKey, startTestGateway, type TestGateway, tempDir } from "../../support/gateway";
import { DESTINATIONS_FILE } from "../../support/observability-parts";
import { until } from "../../support/until";
import { type OpenAiVideoMock, startOpenAiVideoMock } from "../../support/video-mocks/openai-videos";
import { videoYaml } from "../videos/setup";

const PARTS = new URL("../../support/observability-parts.ts", import.meta.url).href;
const dir = tempDir("gw-obs-video-");
let up: OpenAiVideoMock;
let gw: TestGateway;
const received: Array<{ destination: string; generation: ObservedGeneration }> = [];
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: async (req) => (received.push((await req.json()) as (typeof received)[number]), new Response(null, { status: 204 })),
});

beforeAll(async () => {
  up = startOpenAiVideoMock();
  gw = await startTestGateway({ dir, yaml: videoYaml(up.url), env: { WORKERS: "1" }, jobModules: [PARTS] });
});
afterAll(async () => {
  await gw.close();
  up.stop();
  receiver.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

test("a completed video: one delivery per destination, its prompt kept", async () => {
  const { key, data } = await createInferenceKey(gw, { name: "video key" });
  const workspaceId = data.workspace_id as string;
  expect(
    (
      await gw.api(`/api/v1/workspaces/${workspaceId}`, {
        method: "PATCH",
        json: { is_observability_broadcast_enabled: true, is_observability_io_logging_enabled: true },
      })
    ).status,
  ).toBe(200);
  const destination: Destination = {
    id: "d-video",
    workspaceId,
    type: "webhook",
    name: "v",
    enabled: true,
    privacyMode: false,
    samplingRate: 1,
    apiKeyHashes: null,
    filterRules: null,
    broadcastGenerationCost: false,
    broadcastGenerationIdentity: false,
    broadcastGenerationRequestContext: false,
    config: { url: `http://127.0.0.1:${receiver.port}/t` },
  };
  await Bun.write(join(dir, DESTINATIONS_FILE), JSON.stringify([destination]));
  const res = await gw.api("/api/v1/videos", {
    method: "POST",
    key,
    json: { model: "openai/sora-2", prompt: "a lighthouse at dusk", duration: 4, session_id: "video-session" },
  });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  await until(
    "completed",
    async () => ((await (await gw.api(`/api/v1/videos/${id}`, { key })).json()) as { status: string }).status === "completed" || undefined,
    10_000,
  );
  const generationId = (await gw.ctx.store.videoJobs.get(id))!.generationId;
  await until("the video's delivery", () => (received.some((r) => r.generation.id === generationId) ? true : undefined), 10_000);
  const [got] = received.filter((r) => r.generation.id === generationId);
  expect(got).toMatchObject({
    destination: "d-video",
    generation: {
      operation: "video",
      model: "openai/sora-2",
      keyName: "video key",
      status: "success",
      output: null,
      input: { messages: [{ role: "user", content: "a lighthouse at dusk" }] },
    },
  });
  const kept = await gw.api(`/api/v1/generation/content?id=${generationId}`, { key });
  expect(kept.status).toBe(200);
  expect(await kept.json()).toEqual({ data: { input: { prompt: "a lighthouse at dusk" }, output: { completion: null, reasoning: null }, error: null } });
}, 30_000);
