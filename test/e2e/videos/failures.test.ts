// The ways a video request or job goes wrong: every bad field a 400 naming it and the allowed
// values, 404/503/403/402 before anything is stored, an upstream failure, a hung job past its
// deadline, a job whose submission waits past its deadline, a transient create failure retried,
// and content asked for too early.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PaymentRequiredResponseError } from "@openrouter/sdk/models/errors";
import { createInferenceKey } from "../../support/gateway";
import { until } from "../../support/until";
import { sdk } from "../openrouter-sdk/setup";
import { startVideoHarness, type VideoHarness } from "./setup";

let h: VideoHarness;
beforeAll(async () => {
  h = await startVideoHarness();
});
afterAll(() => h.close());

const post = (json: unknown, key: string | null = h.key) => h.gw.api("/api/v1/videos", { method: "POST", key, json });
const errorOf = async (res: Response) => ({
  status: res.status,
  body: (await res.json()) as { error: { code: number; message: string; metadata?: Record<string, unknown> } },
});

async function terminal(id: string): Promise<{ status: string; error?: string; usage?: unknown; unsigned_urls?: unknown }> {
  return until(
    `video ${id} terminal`,
    async () => {
      const body = (await (await h.gw.api(`/api/v1/videos/${id}`, { key: h.key })).json()) as { status: string };
      return ["completed", "failed"].includes(body.status) ? body : undefined;
    },
    10_000,
  );
}

describe("refused before anything is stored", () => {
  test("each field outside the model's lists is a 400 naming it and the allowed values", async () => {
    const base = { model: "openai/sora-2", prompt: "p" };
    const cases: Array<[Record<string, unknown>, string, unknown[]]> = [
      [{ duration: 5 }, "duration", [4, 8, 12]],
      [{ resolution: "1080p" }, "resolution", ["720p"]],
      [{ aspect_ratio: "1:1" }, "aspect_ratio", ["16:9", "9:16"]],
      [{ size: "1920x1080" }, "size", ["1280x720", "720x1280"]],
      [{ seed: 7 }, "seed", []],
      [{ frame_images: [{ type: "image_url", image_url: { url: "https://x.example/a.png" }, frame_type: "first_frame" }] }, "frame_images[0].frame_type", []],
      [{ provider: { options: { openai: { parameters: { style: "noir" } } } } }, "provider.options.openai.parameters.style", ["quality"]],
      [{ provider: { options: { openai: { style: "noir" } } } }, "provider.options.openai.style", ["quality"]],
      [{ upscale_factor: 2 }, "upscale_factor", []],
    ];
    for (const [extra, field, allowed] of cases) {
      const { status, body } = await errorOf(await post({ ...base, ...extra }));
      expect({ field, status, code: body.error.code, metadata: body.error.metadata }).toEqual({ field, status: 400, code: 400, metadata: { field, allowed } });
      expect(body.error.message).toContain(field);
      for (const value of allowed) expect(body.error.message).toContain(String(value));
    }
    const missing = await errorOf(await post({ model: "openai/sora-2" }));
    expect(missing).toEqual({ status: 400, body: { error: { code: 400, message: "prompt is required", metadata: { field: "prompt" } } } });
    const callback = await errorOf(await post({ ...base, callback_url: "ftp://hooks.example/x" }));
    expect(callback.status).toBe(400);
    expect(callback.body.error.metadata?.field).toBe("callback_url");
    const schema = await errorOf(await post({ ...base, duration: "eight" }));
    expect(schema.status).toBe(400);
    expect(schema.body.error.message).toContain("duration");
  });

  test("unknown model 404, no usable endpoint 503, a management key 403, a key past its limit 402", async () => {
    expect((await errorOf(await post({ model: "acme/nope", prompt: "p" }))).status).toBe(404);
    expect((await errorOf(await post({ model: "acme/no-key", prompt: "p" }))).status).toBe(503);
    expect((await errorOf(await post({ model: "openai/sora-2", prompt: "p" }, h.gw.adminKey))).status).toBe(403);
    // 12 s with audio costs up to $1.81; the key has $1
    const poor = await createInferenceKey(h.gw, { name: "poor", limit: 1 });
    const creates = h.up.creates.length;
    const refused = sdk(h.gw, poor.key).videoGeneration.generate({ videoGenerationRequest: { model: "openai/sora-2", prompt: "p", duration: 12 } });
    await expect(refused).rejects.toBeInstanceOf(PaymentRequiredResponseError);
    // 4 s fits: $0.61
    const fits = await post({ model: "openai/sora-2", prompt: "p", duration: 4 }, poor.key);
    expect(fits.status).toBe(202);
    const job = (await fits.json()) as { id: string };
    expect((await terminal(job.id)).status).toBe("completed");
    expect(h.up.creates.length).toBe(creates + 1);
    const key = (await (await h.gw.api(`/api/v1/keys/${poor.hash}`)).json()) as { data: { usage: number } };
    expect(key.data.usage).toBe(0.61);
    expect(await h.gw.ctx.store.reservations.held(poor.hash)).toBe(0);
  });
});

test("a key's rpm counts video submissions: the second in a minute is 429", async () => {
  const limited = await createInferenceKey(h.gw, { name: "rpm", rate_limit: { rpm: 1 } });
  const first = await post({ model: "openai/sora-2", prompt: "p", duration: 4 }, limited.key);
  expect(first.status).toBe(202);
  const second = await post({ model: "openai/sora-2", prompt: "p", duration: 4 }, limited.key);
  expect(second.status).toBe(429);
  expect(second.headers.get("retry-after")).not.toBeNull();
  await terminal(((await first.json()) as { id: string }).id);
});

describe("jobs that go wrong", () => {
  test("an upstream failure fails the job with its message as a plain string; the reservation is released; content is 400", async () => {
    h.up.mode = { kind: "fail", code: "moderation_blocked", message: "Your request was blocked by our moderation system." };
    const limited = await createInferenceKey(h.gw, { name: "limited", limit: 5 });
    const events: string[] = [];
    const receiver = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (req) => (events.push(await req.text()), new Response(null, { status: 204 })) });
    try {
      const res = await post({ model: "openai/sora-2", prompt: "p", duration: 4, callback_url: `http://127.0.0.1:${receiver.port}/h` }, limited.key);
      const job = (await res.json()) as { id: string; generation_id: string };
      expect(await h.gw.ctx.store.reservations.held(limited.hash)).toBe(610_000_000);
      // the instance that took the request stops renewing its reservations (as if it died): the job's stays
      const now = Date.now();
      await h.gw.ctx.store.reservations.renew(h.gw.ctx.reservationLease.instanceId, now + 1);
      await h.gw.ctx.store.reservations.releaseExpired(now + 10);
      expect(await h.gw.ctx.store.reservations.held(limited.hash)).toBe(610_000_000);
      const failed = await terminal(job.id);
      expect(await h.gw.ctx.store.reservations.held(limited.hash)).toBe(0);
      expect(failed).toEqual({
        id: job.id,
        polling_url: `${h.gw.url}/api/v1/videos/${job.id}`,
        status: "failed",
        generation_id: job.generation_id,
        error: "Your request was blocked by our moderation system.",
      } as never);
      const content = await errorOf(await h.gw.api(`/api/v1/videos/${job.id}/content`, { key: h.key }));
      expect(content.status).toBe(400);
      const generation = (await (await h.gw.api(`/api/v1/generation?id=${job.generation_id}`, { key: limited.key })).json()) as {
        data: Record<string, unknown>;
      };
      expect(generation.data).toMatchObject({ api_type: "video", total_cost: 0 });
      const event = JSON.parse(await until("the failed webhook", async () => events[0], 8_000));
      expect(event.type).toBe("video.generation.failed");
      expect(event.data).toEqual({
        id: job.id,
        status: "failed",
        generation_id: job.generation_id,
        model: "openai/sora-2",
        error: "Your request was blocked by our moderation system.",
      });
    } finally {
      receiver.stop(true);
      h.up.mode = { kind: "ok" };
    }
  });

  test("a job that hangs upstream fails at its deadline with a clear error", async () => {
    h.up.mode = { kind: "hang" };
    try {
      const started = Date.now();
      const res = await post({ model: "openai/sora-2", prompt: "p", duration: 4 });
      const job = (await res.json()) as { id: string };
      const inProgress = await until(
        "in_progress",
        async () => {
          const body = (await (await h.gw.api(`/api/v1/videos/${job.id}`, { key: h.key })).json()) as { status: string };
          return body.status === "in_progress" ? body : undefined;
        },
        5_000,
      );
      expect(inProgress.status).toBe("in_progress");
      const failed = await terminal(job.id);
      expect(failed.status).toBe("failed");
      expect(failed.error).toBe("Timed out: the video was not ready within 3 seconds");
      // deadline_minutes 0.05: three seconds
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    } finally {
      h.up.mode = { kind: "ok" };
    }
  });

  test("an upstream that never answers the create: the call is cut at the deadline and the job fails", async () => {
    h.up.delayMs = 60_000;
    try {
      const started = Date.now();
      const job = (await (await post({ model: "openai/sora-2", prompt: "p", duration: 4 })).json()) as { id: string };
      const failed = await terminal(job.id);
      expect(failed).toMatchObject({ status: "failed", error: "The video was not accepted by any provider before its deadline" });
      expect(Date.now() - started).toBeLessThan(6_000);
    } finally {
      h.up.delayMs = 0;
    }
  });

  test("a create answered 429 with a Retry-After past the deadline: the job fails at its deadline; cost 0, reservation released, one failed webhook", async () => {
    h.up.createErrors = [429];
    h.up.createRetryAfter = 600;
    const limited = await createInferenceKey(h.gw, { name: "retry after", limit: 5 });
    const events: string[] = [];
    const receiver = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (req) => (events.push(await req.text()), new Response(null, { status: 204 })) });
    const creates = h.up.creates.length;
    try {
      const started = Date.now();
      const res = await post({ model: "openai/sora-2", prompt: "p", duration: 4, callback_url: `http://127.0.0.1:${receiver.port}/h` }, limited.key);
      const job = (await res.json()) as { id: string; generation_id: string };
      await until("the create answered 429", () => (h.up.creates.length === creates + 1 ? true : undefined), 5_000);
      expect(await h.gw.ctx.store.reservations.held(limited.hash)).toBe(610_000_000);
      const failed = await terminal(job.id);
      const ms = Date.now() - started;
      expect(failed).toEqual({
        id: job.id,
        polling_url: `${h.gw.url}/api/v1/videos/${job.id}`,
        status: "failed",
        generation_id: job.generation_id,
        error: "The video was not accepted by any provider before its deadline",
      } as never);
      // deadline_minutes 0.05: three seconds, not the ten minutes the upstream asked to wait
      expect(ms).toBeGreaterThanOrEqual(2_900);
      expect(ms).toBeLessThan(6_000);
      await until("the reservation released", async () => ((await h.gw.ctx.store.reservations.held(limited.hash)) === 0 ? true : undefined), 2_000);
      const generation = (await (await h.gw.api(`/api/v1/generation?id=${job.generation_id}`, { key: limited.key })).json()) as {
        data: Record<string, unknown>;
      };
      expect(generation.data).toMatchObject({ api_type: "video", total_cost: 0 });
      await until("the failed webhook", async () => events[0], 8_000);
      // whatever is still queued would arrive now
      await Bun.sleep(400);
      expect(events.map((e) => JSON.parse(e) as { type: string; data: { id: string } }).map((e) => [e.type, e.data.id])).toEqual([
        ["video.generation.failed", job.id],
      ]);
      expect(h.up.creates.length).toBe(creates + 1);
    } finally {
      receiver.stop(true);
      h.up.createErrors = [];
      h.up.createRetryAfter = undefined;
    }
  });

  test("a transient create failure (503) is retried; the job completes", async () => {
    h.up.createErrors = [503, 429];
    const before = h.up.creates.length;
    const job = (await (await post({ model: "openai/sora-2", prompt: "p", duration: 4 })).json()) as { id: string };
    expect((await terminal(job.id)).status).toBe("completed");
    expect(h.up.creates.length).toBe(before + 3);
  });

  test("another workspace's job is 404, as is an unknown id", async () => {
    const job = (await (await post({ model: "openai/sora-2", prompt: "p", duration: 4 })).json()) as { id: string };
    const ws = (await (await h.gw.api("/api/v1/workspaces", { method: "POST", json: { name: "Other", slug: "other-videos" } })).json()) as {
      data: { id: string };
    };
    const other = await createInferenceKey(h.gw, { name: "other", workspace_id: ws.data.id });
    expect((await h.gw.api(`/api/v1/videos/${job.id}`, { key: other.key })).status).toBe(404);
    expect((await h.gw.api(`/api/v1/videos/${job.id}/content`, { key: other.key })).status).toBe(404);
    expect((await h.gw.api(`/api/v1/videos/gen-vid-1-nope`, { key: h.key })).status).toBe(404);
    // management keys are refused on the job routes, as on inference
    expect((await h.gw.api(`/api/v1/videos/${job.id}`, { key: h.gw.adminKey })).status).toBe(403);
    expect((await h.gw.api(`/api/v1/videos/${job.id}/content`, { key: h.gw.adminKey })).status).toBe(403);
    expect((await h.gw.api(`/api/v1/videos/${job.id}`, { key: null })).status).toBe(401);
    await terminal(job.id);
  });
});
