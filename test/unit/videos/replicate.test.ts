/** The Replicate adapter against a loopback mock speaking Replicate's predictions API. */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import type { VideoRequest, VideoTarget } from "../../../src/videos/adapters/adapter";
import { createReplicateAdapter } from "../../../src/videos/adapters/replicate";
import { download, never, pollUntilSettled, submitOrThrow } from "../../support/video-mocks/drive";
import { VIDEO_BYTES } from "../../support/video-mocks/mock-server";
import { startReplicateMock } from "../../support/video-mocks/replicate";

const mock = startReplicateMock();
afterAll(() => mock.stop());
beforeEach(() => {
  mock.requests.length = 0;
  mock.nextJob = { statuses: ["starting", "processing", "succeeded"] };
});

const adapter = createReplicateAdapter({ timeoutMs: 300 });
const target = (model = "google/veo-3.1"): VideoTarget => ({ baseUrl: mock.baseUrl, apiKey: mock.key, model, headers: {} });
const request = (extra: Partial<VideoRequest> = {}): VideoRequest => ({ prompt: "waves at dusk", passthrough: {}, ...extra });

const submitted = (t = target(), r = request()) => submitOrThrow(adapter, t, r);

describe("submit", () => {
  test("an official model is created on its own endpoint with Bearer auth, no Prefer: wait, input translated and passthrough last", async () => {
    const ref = await submitted(
      target(),
      request({
        durationSeconds: 8,
        aspectRatio: "9:16",
        resolution: "1080p",
        seed: 3,
        generateAudio: true,
        frameImages: [
          { frame: "first_frame", url: "https://img.test/a.png" },
          { frame: "last_frame", url: "https://img.test/b.png" },
        ],
        passthrough: { negative_prompt: "text", duration: 6 },
      }),
    );
    const sent = mock.requests[0]!;
    expect([sent.method, sent.path]).toEqual(["POST", "/v1/models/google/veo-3.1/predictions"]);
    expect(sent.headers.authorization).toBe(`Bearer ${mock.key}`);
    expect(sent.headers.prefer).toBeUndefined();
    expect(sent.body).toEqual({
      input: {
        prompt: "waves at dusk",
        duration: 6,
        aspect_ratio: "9:16",
        resolution: "1080p",
        seed: 3,
        generate_audio: true,
        image: "https://img.test/a.png",
        last_frame: "https://img.test/b.png",
        negative_prompt: "text",
      },
    });
    expect(ref).toEqual({ id: ref.id!, get_url: `${mock.baseUrl}/predictions/${ref.id}`, cancel_url: `${mock.baseUrl}/predictions/${ref.id}/cancel` });
  });

  test("owner/name:version goes to /predictions with the version; references become reference_images", async () => {
    await submitted(target("wan-video/wan-2.7-r2v:5a1b2c"), request({ size: "1280x720", inputReferences: [{ url: "https://img.test/r.png" }] }));
    const sent = mock.requests[0]!;
    expect(sent.path).toBe("/v1/predictions");
    expect(sent.body).toEqual({ version: "5a1b2c", input: { prompt: "waves at dusk", size: "1280x720", reference_images: ["https://img.test/r.png"] } });
  });

  test("429 with Retry-After is a retry", async () => {
    mock.fail(/^POST /, {
      status: 429,
      body: { title: "Too Many Requests", detail: "Request was throttled. Expected available in 4 seconds.", status: 429 },
      headers: { "retry-after": "4" },
    });
    expect(await adapter.submit(target(), request(), never)).toEqual({
      kind: "retry",
      status: 429,
      reason: "HTTP 429: Request was throttled. Expected available in 4 seconds.",
      retryAfterSeconds: 4,
    });
  });

  test("402 is insufficient_credits; 422 is invalid_request", async () => {
    mock.fail(/^POST /, { status: 402, body: { title: "Insufficient credit", detail: "You have insufficient credit to run this model.", status: 402 } });
    expect(await adapter.submit(target(), request(), never)).toEqual({
      kind: "failed",
      code: "insufficient_credits",
      message: "You have insufficient credit to run this model.",
    });
    mock.fail(/^POST /, { status: 422, body: { title: "Input validation failed", detail: "input.duration: Must be one of 4, 6, 8", status: 422 } });
    expect(await adapter.submit(target(), request(), never)).toEqual({
      kind: "failed",
      code: "invalid_request",
      message: "input.duration: Must be one of 4, 6, 8",
    });
  });

  test("a 502 with an HTML body is a retry", async () => {
    mock.fail(/^POST /, { status: 502, body: "<html>Bad Gateway</html>" });
    expect(await adapter.submit(target(), request(), never)).toEqual({ kind: "retry", status: 502, reason: 'HTTP 502: "<html>Bad Gateway</html>"' });
  });
});

describe("poll", () => {
  test("starting → pending, processing → in_progress, succeeded → the output URL, which serves the bytes", async () => {
    const ref = await submitted();
    const { seen, last } = await pollUntilSettled(adapter, target(), ref);
    expect(seen).toEqual(["pending", "in_progress", "completed"]);
    if (last.kind !== "completed") throw new Error("not completed");
    expect(await download(last.outputs[0]!)).toEqual({ status: 200, bytes: VIDEO_BYTES });
    expect(mock.requests.filter((r) => r.path.startsWith("/v1/predictions/")).every((r) => r.headers.authorization === `Bearer ${mock.key}`)).toBe(true);
  });

  test("an array output gives one output per URL", async () => {
    mock.nextJob = { statuses: ["succeeded"], outputShape: "array" };
    const { last } = await pollUntilSettled(adapter, target(), await submitted());
    expect(last.kind === "completed" && last.outputs.length).toBe(1);
  });

  test.each([
    ["The input or output was flagged as sensitive. Please try again with different inputs. (E005)", "content_filtered"],
    ["CUDA out of memory", "upstream_error"],
  ] as const)("failed with %j is %s, the error surfaced verbatim", async (error, code) => {
    mock.nextJob = { statuses: ["processing", "failed"], error };
    const { last } = await pollUntilSettled(adapter, target(), await submitted());
    expect(last).toEqual({ kind: "failed", code, message: error });
  });

  test("aborted fails; outputs that expired answer 403", async () => {
    mock.nextJob = { statuses: ["aborted"] };
    expect((await pollUntilSettled(adapter, target(), await submitted())).last).toEqual({
      kind: "failed",
      code: "upstream_error",
      message: "Replicate aborted the prediction before it ran",
    });
    mock.nextJob = { statuses: ["succeeded"], ttlMs: 1 };
    const { last } = await pollUntilSettled(adapter, target(), await submitted());
    await Bun.sleep(5);
    expect(last.kind === "completed" && (await download(last.outputs[0]!)).status).toBe(403);
  });

  test("a 404 on poll fails (the prediction is gone); a 500 is a retry", async () => {
    const ref = await submitted();
    mock.fail(/^GET /, { status: 500, body: { title: "Internal Server Error", status: 500 } });
    expect(await adapter.poll(target(), ref, never)).toEqual({ kind: "retry", status: 500, reason: "HTTP 500: Internal Server Error" });
    expect(await adapter.poll(target(), { ...ref, get_url: `${mock.baseUrl}/predictions/nope` }, never)).toEqual({
      kind: "failed",
      code: "invalid_request",
      message: "The requested resource could not be found",
    });
  });
});

describe("cancel", () => {
  test("POSTs the cancel URL; the next poll reports cancelled", async () => {
    mock.nextJob = { statuses: ["processing"] };
    const ref = await submitted();
    await adapter.cancel!(target(), ref, never);
    const sent = mock.requests.at(-1)!;
    expect([sent.method, sent.path, sent.headers.authorization]).toEqual(["POST", `/v1/predictions/${ref.id}/cancel`, `Bearer ${mock.key}`]);
    expect(await adapter.poll(target(), ref, never)).toEqual({ kind: "cancelled" });
  });

  test("an upstream that hangs on cancel does not hold the caller past the limit", async () => {
    const ref = await submitted();
    mock.fail(/\/cancel$/, { hang: true });
    const started = performance.now();
    await adapter.cancel!(target(), ref, never);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
