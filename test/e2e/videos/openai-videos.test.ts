// Video generation end to end through the real @openrouter/sdk client (its zod schemas check every
// answer): submit, the job worker polling the loopback OpenAI-shaped Videos API to completion, the
// bytes downloaded from the gateway's own storage, Range, the generation record and the webhook.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { until } from "../../support/until";
import { sdk } from "../openrouter-sdk/setup";
import { startVideoHarness, type VideoHarness } from "./setup";

let h: VideoHarness;
let secret: string;
const hooks: Array<{ body: string; headers: Headers }> = [];
let receiver: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  h = await startVideoHarness();
  const rotated = await h.gw.api(`/api/v1/workspaces/${h.workspaceId}/webhook-secret`, { method: "POST" });
  secret = ((await rotated.json()) as { data: { secret: string } }).data.secret;
  receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      hooks.push({ body: await req.text(), headers: req.headers });
      return new Response(null, { status: 204 });
    },
  });
});
afterAll(async () => {
  receiver.stop(true);
  await h.close();
});

const hookUrl = () => `http://127.0.0.1:${receiver.port}/video-hooks`;

async function _settled(id: string) {
  return until(
    `video ${id} terminal`,
    async () => {
      const res = await h.gw.api(`/api/v1/videos/${id}`, { key: h.key });
      const body = (await res.json()) as { status: string };
      return ["completed", "failed", "cancelled", "expired"].includes(body.status) ? body : undefined;
    },
    10_000,
  );
}

function openRouterVerify(header: string, body: string, key: string): boolean {
  const parts = header.split(",").map((p) => p.split("="));
  const t = parts.find(([k]) => k === "t")?.[1];
  if (!t || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = Buffer.from(createHmac("sha256", key).update(`${t},${body}`).digest("hex"));
  return parts.filter(([k]) => k === "v1").some(([, v]) => v !== undefined && v.length === expected.length && timingSafeEqual(Buffer.from(v), expected));
}

describe("openai-videos through the SDK", () => {
  test("submit, poll to completion, download the exact bytes, a Range, the generation record and one signed webhook", async () => {
    const client = sdk(h.gw, h.key);
    const createsBefore = h.up.creates.length;
    const submitted = await client.videoGeneration.generate({
      videoGenerationRequest: {
        model: "openai/sora-2",
        prompt: "a lighthouse at dusk",
        duration: 8,
        aspectRatio: "16:9",
        resolution: "720p",
        callbackUrl: hookUrl(),
        sessionId: "video-session-1",
        user: "end-user-7",
        provider: { options: { openai: { parameters: { quality: "high" } }, replicate: { parameters: { quality: "never sent" } } } },
      },
    });
    expect(submitted.status).toBe("pending");
    expect(submitted.id).toMatch(/^gen-vid-\d+-[A-Za-z0-9]{20}$/);
    expect(submitted.pollingUrl).toBe(`${h.gw.url}/api/v1/videos/${submitted.id}`);
    expect(submitted.generationId).toMatch(/^gen-/);

    const done = await until(
      "completed",
      async () => {
        const job = await client.videoGeneration.getGeneration({ jobId: submitted.id });
        return job.status === "completed" || job.status === "failed" ? job : undefined;
      },
      10_000,
    );
    expect(done.status).toBe("completed");
    expect(done.unsignedUrls).toEqual([`${h.gw.url}/api/v1/videos/${submitted.id}/content?index=0`]);
    // 8 s with audio at $0.15 plus $0.01 per video
    expect(done.usage).toEqual({ cost: 1.21, isByok: false });
    expect(done.error).toBeUndefined();
    // only the serving provider's allow-listed passthrough went upstream, with the size the request meant
    expect(h.up.creates.slice(createsBefore)).toEqual([{ model: "sora-2", prompt: "a lighthouse at dusk", seconds: "8", size: "1280x720", quality: "high" }]);

    const stream = await client.videoGeneration.getVideoContent({ jobId: submitted.id, index: 0 });
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    expect(bytes.length).toBe(h.up.bytes.length);
    expect(Buffer.compare(Buffer.from(bytes), Buffer.from(h.up.bytes))).toBe(0);

    const whole = await h.gw.api(`/api/v1/videos/${submitted.id}/content`, { key: h.key });
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("video/mp4");
    expect(whole.headers.get("content-length")).toBe(String(h.up.bytes.length));
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    await whole.arrayBuffer();
    const ranged = await h.gw.api(`/api/v1/videos/${submitted.id}/content?index=0`, { key: h.key, headers: { Range: "bytes=1000-1999" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 1000-1999/${h.up.bytes.length}`);
    expect(ranged.headers.get("content-length")).toBe("1000");
    expect(Buffer.compare(Buffer.from(await ranged.arrayBuffer()), Buffer.from(h.up.bytes.slice(1000, 2000)))).toBe(0);
    const beyond = await h.gw.api(`/api/v1/videos/${submitted.id}/content?index=1`, { key: h.key });
    expect(beyond.status).toBe(404);

    const generation = (await (await h.gw.api(`/api/v1/generation?id=${submitted.generationId}`, { key: h.key })).json()) as { data: Record<string, unknown> };
    expect(generation.data).toMatchObject({
      id: submitted.generationId,
      api_type: "video",
      model: "openai/sora-2",
      provider_name: "OpenAI Videos",
      total_cost: 1.21,
      is_byok: false,
      session_id: "video-session-1",
      external_user: "end-user-7",
    });

    const hook = await until(
      "the webhook",
      async () => hooks.find((x) => x.headers.get("x-openrouter-idempotency-key") === `${submitted.id}-completed`),
      8_000,
    );
    const event = JSON.parse(hook.body);
    expect(Object.keys(event).sort()).toEqual(["created_at", "data", "type"]);
    expect(event.type).toBe("video.generation.completed");
    expect(event.data).toEqual({
      id: submitted.id,
      status: "completed",
      generation_id: submitted.generationId,
      model: "openai/sora-2",
      unsigned_urls: done.unsignedUrls,
      usage: { cost: 1.21, is_byok: false },
    });
    expect(openRouterVerify(hook.headers.get("x-openrouter-signature")!, hook.body, secret)).toBe(true);
    const headers = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((k) => [k, hook.headers.get(k)!]));
    expect(new Webhook(secret).verify(hook.body, headers)).toEqual(event);
    await Bun.sleep(300);
    expect(hooks.filter((x) => x.headers.get("x-openrouter-idempotency-key") === `${submitted.id}-completed`).length).toBe(1);
  });

  test("listVideosModels: every VideoModel field; video models are not in /api/v1/models", async () => {
    const client = sdk(h.gw, h.key);
    const list = await client.videoGeneration.listVideosModels();
    const sora = list.data.find((m) => m.id === "openai/sora-2")!;
    expect(sora).toMatchObject({
      id: "openai/sora-2",
      canonicalSlug: "openai/sora-2",
      name: "OpenAI: Sora 2",
      description: "Sora 2 through an OpenAI-shaped Videos API",
      huggingFaceId: null,
      allowedPassthroughParameters: ["quality"],
      supportedDurations: [4, 8, 12],
      supportedResolutions: ["720p"],
      supportedAspectRatios: ["16:9", "9:16"],
      supportedSizes: ["1280x720", "720x1280"],
      supportedFrameImages: null,
      generateAudio: true,
      seed: false,
      creativity: null,
      upscaleFactor: null,
      pricingSkus: { duration_seconds: "0.1", duration_seconds_with_audio: "0.15", video: "0.01" },
    });
    expect(typeof sora.created).toBe("number");
    const models = (await (await h.gw.api("/api/v1/models", { key: h.key })).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((m) => m.id)).not.toContain("openai/sora-2");
  });
});
