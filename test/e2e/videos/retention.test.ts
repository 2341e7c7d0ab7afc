// Retention: once retention_days have passed a completed job's stored outputs are deleted, the
// job is expired, /content answers 410, and the expired webhook follows the completed one.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { until } from "../../support/until";
import { type OpenAiVideoMock, startOpenAiVideoMock } from "../../support/video-mocks/openai-videos";
import { videoYaml } from "./setup";

let up: OpenAiVideoMock;
let gw: TestGateway;
let key: string;
const hooks: Array<{ idempotency: string | null; event: { type: string; data: Record<string, unknown> } }> = [];
let receiver: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  up = startOpenAiVideoMock({ bytes: 5_000 });
  // about 2.6 s of retention
  gw = await startTestGateway({ yaml: videoYaml(up.url).replace("retention_days: 1", "retention_days: 0.00003"), env: { WORKERS: "1" } });
  key = (await createInferenceKey(gw, { name: "retention" })).key;
  receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      hooks.push({ idempotency: req.headers.get("x-openrouter-idempotency-key"), event: (await req.json()) as never });
      return new Response(null, { status: 204 });
    },
  });
});
afterAll(async () => {
  receiver.stop(true);
  await gw.close();
  up.stop();
});

test("completed, then expired: outputs deleted, 410, one webhook per status", async () => {
  const res = await gw.api("/api/v1/videos", {
    method: "POST",
    key,
    json: { model: "openai/sora-2", prompt: "p", duration: 4, callback_url: `http://127.0.0.1:${receiver.port}/h` },
  });
  const { id } = (await res.json()) as { id: string };
  await until(
    "completed",
    async () => ((await (await gw.api(`/api/v1/videos/${id}`, { key })).json()) as { status: string }).status === "completed" || undefined,
    8_000,
  );
  const path = (await gw.ctx.store.videoJobs.get(id))!.outputs[0]!.path;
  expect(existsSync(path)).toBe(true);
  expect((await gw.api(`/api/v1/videos/${id}/content`, { key })).status).toBe(200);
  const expired = await until(
    "expired",
    async () => {
      const body = (await (await gw.api(`/api/v1/videos/${id}`, { key })).json()) as { status: string; unsigned_urls?: unknown; usage?: unknown };
      return body.status === "expired" ? body : undefined;
    },
    8_000,
  );
  expect(expired.unsigned_urls).toBeUndefined();
  expect(existsSync(path)).toBe(false);
  const gone = await gw.api(`/api/v1/videos/${id}/content`, { key });
  expect(gone.status).toBe(410);
  expect(((await gone.json()) as { error: { code: number } }).error.code).toBe(410);
  await until("two webhooks", async () => (hooks.length >= 2 ? true : undefined), 8_000);
  await Bun.sleep(200);
  expect(hooks.map((h) => [h.idempotency, h.event.type, h.event.data.status])).toEqual([
    [`${id}-completed`, "video.generation.completed", "completed"],
    [`${id}-expired`, "video.generation.expired", "expired"],
  ]);
});
