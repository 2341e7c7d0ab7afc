/** The fal queue adapter against a loopback mock speaking fal's queue wire shapes. */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import type { VideoRequest, VideoTarget } from "../../../src/videos/adapters/adapter";
import { createFalQueueAdapter } from "../../../src/videos/adapters/fal-queue";
import { download, never, pollUntilSettled, submitOrThrow } from "../../support/video-mocks/drive";
import { startFalQueueMock } from "../../support/video-mocks/fal-queue";
import { VIDEO_BYTES } from "../../support/video-mocks/mock-server";

const mock = startFalQueueMock();
afterAll(() => mock.stop());
beforeEach(() => {
  mock.requests.length = 0;
  mock.nextJob = { statuses: ["IN_QUEUE", "IN_PROGRESS", "COMPLETED"], result: { kind: "video" } };
});

const adapter = createFalQueueAdapter({ timeoutMs: 300 });
const target = (model = "fal-ai/veo3.1"): VideoTarget => ({ baseUrl: mock.url, apiKey: mock.key, model, headers: { "x-fal-queue-priority": "normal" } });
const request = (extra: Partial<VideoRequest> = {}): VideoRequest => ({ prompt: "a red fox in snow", passthrough: {}, ...extra });

const submitted = (t = target(), r = request()) => submitOrThrow(adapter, t, r);

describe("submit", () => {
  test("sends the translated input with `Key` auth, last-merged passthrough, and keeps fal's URLs", async () => {
    const ref = await submitted(
      target(),
      request({
        durationSeconds: 8,
        resolution: "1080p",
        aspectRatio: "16:9",
        seed: 7,
        generateAudio: false,
        passthrough: { negative_prompt: "blur", seed: 9 },
      }),
    );
    const sent = mock.requests[0]!;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/fal-ai/veo3.1");
    expect(sent.headers.authorization).toBe(`Key ${mock.key}`);
    expect(sent.headers["x-fal-queue-priority"]).toBe("normal");
    expect(sent.body).toEqual({
      prompt: "a red fox in snow",
      duration: "8s",
      resolution: "1080p",
      aspect_ratio: "16:9",
      seed: 9,
      generate_audio: false,
      negative_prompt: "blur",
    });
    expect(ref).toEqual({
      request_id: ref.request_id!,
      status_url: `${mock.url}/fal-ai/veo3.1/requests/${ref.request_id}/status`,
      response_url: `${mock.url}/fal-ai/veo3.1/requests/${ref.request_id}`,
      cancel_url: `${mock.url}/fal-ai/veo3.1/requests/${ref.request_id}/cancel`,
    });
  });

  test("non-Veo endpoints take the duration as a number; size becomes aspect ratio + resolution", async () => {
    await submitted(target("fal-ai/kling-video/v2.6/pro/text-to-video"), request({ durationSeconds: 5, size: "1920x1080" }));
    expect(mock.requests[0]!.body).toEqual({ prompt: "a red fox in snow", duration: 5, aspect_ratio: "16:9", resolution: "1080p" });
  });

  test.each([
    [[{ frame: "first_frame" as const, url: "https://img.test/a.png" }], "/fal-ai/veo3.1/image-to-video", { image_url: "https://img.test/a.png" }],
    [
      [
        { frame: "first_frame" as const, url: "https://img.test/a.png" },
        { frame: "last_frame" as const, url: "https://img.test/b.png" },
      ],
      "/fal-ai/veo3.1/first-last-frame-to-video",
      { first_frame_url: "https://img.test/a.png", last_frame_url: "https://img.test/b.png" },
    ],
  ])("frame images switch the endpoint and pass the URLs as they are", async (frameImages, path, fields) => {
    const ref = await submitted(target(), request({ frameImages }));
    expect(mock.requests[0]!.path).toBe(path);
    expect(mock.requests[0]!.body).toEqual({ prompt: "a red fox in snow", ...fields });
    // status lives under the app, without the subpath
    expect(ref.status_url).toBe(`${mock.url}/fal-ai/veo3.1/requests/${ref.request_id}/status`);
  });

  test("references go to /reference-to-video as image_urls", async () => {
    await submitted(
      target("fal-ai/veo3.1/text-to-video"),
      request({ inputReferences: [{ url: "https://img.test/r1.png" }, { url: "https://img.test/r2.png" }] }),
    );
    expect(mock.requests[0]!.path).toBe("/fal-ai/veo3.1/reference-to-video");
    expect(mock.requests[0]!.body).toEqual({ prompt: "a red fox in snow", image_urls: ["https://img.test/r1.png", "https://img.test/r2.png"] });
  });

  test("429 with Retry-After is a retry after that many seconds", async () => {
    mock.fail(/^POST /, { status: 429, body: { detail: "Rate limit exceeded" }, headers: { "retry-after": "17" } });
    expect(await adapter.submit(target(), request(), never)).toEqual({
      kind: "retry",
      status: 429,
      reason: "HTTP 429: Rate limit exceeded",
      retryAfterSeconds: 17,
    });
  });

  test("500 is a retry without a delay", async () => {
    mock.fail(/^POST /, { status: 500, body: { detail: "Internal Server Error" } });
    expect(await adapter.submit(target(), request(), never)).toEqual({ kind: "retry", status: 500, reason: "HTTP 500: Internal Server Error" });
  });

  test("422 is a failed invalid_request carrying pydantic's detail", async () => {
    mock.fail(/^POST /, {
      status: 422,
      body: { detail: [{ loc: ["body", "duration"], msg: "unexpected value; permitted: '4s', '6s', '8s'", type: "literal_error" }] },
    });
    expect(await adapter.submit(target(), request(), never)).toEqual({
      kind: "failed",
      code: "invalid_request",
      message: "body.duration: unexpected value; permitted: '4s', '6s', '8s'",
    });
  });

  test("a wrong key (401) fails as the provider's problem", async () => {
    expect(await adapter.submit({ ...target(), apiKey: "wrong" }, request(), never)).toEqual({
      kind: "failed",
      code: "upstream_error",
      message: "Unauthorized",
    });
  });

  test("an upstream that hangs is a retry once the adapter's own limit passes", async () => {
    mock.fail(/^POST /, { hang: true });
    const started = performance.now();
    expect(await adapter.submit(target(), request(), never)).toEqual({ kind: "retry", reason: "no answer within 300 ms" });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  test("nothing listening is a retry", async () => {
    const outcome = await adapter.submit({ ...target(), baseUrl: "http://127.0.0.1:1" }, request(), never);
    expect(outcome.kind).toBe("retry");
  });
});

describe("poll", () => {
  test("IN_QUEUE → pending, IN_PROGRESS → in_progress, COMPLETED → the video, whose URL serves the bytes", async () => {
    const ref = await submitted();
    const { seen, last } = await pollUntilSettled(adapter, target(), ref);
    expect(seen).toEqual(["pending", "in_progress", "completed"]);
    if (last.kind !== "completed") throw new Error("not completed");
    expect(last.outputs).toHaveLength(1);
    expect(last.outputs[0]!.contentType).toBe("video/mp4");
    expect(await download(last.outputs[0]!)).toEqual({ status: 200, bytes: VIDEO_BYTES });
    const status = mock.requests.find((r) => r.path.endsWith("/status"))!;
    expect(status.search).toBe("?logs=0");
    expect(status.headers.authorization).toBe(`Key ${mock.key}`);
  });

  test("an output URL that has expired answers 403: the lifecycle must copy it promptly", async () => {
    mock.nextJob = { statuses: ["COMPLETED"], result: { kind: "video", ttlMs: 1 } };
    const { last } = await pollUntilSettled(adapter, target(), await submitted());
    if (last.kind !== "completed") throw new Error("not completed");
    await Bun.sleep(5);
    expect((await download(last.outputs[0]!)).status).toBe(403);
  });

  test.each([
    [422, "content_policy_violation", "content_filtered"],
    [504, "request_timeout", "timeout"],
    [500, "runner_disconnected", "upstream_error"],
    [422, undefined, "invalid_request"],
  ] as const)("COMPLETED with a %i result (error_type %s) fails as %s", async (status, errorType, code) => {
    mock.nextJob = { statuses: ["COMPLETED"], result: { kind: "error", status, ...(errorType ? { errorType } : {}), detail: "it went wrong" } };
    const { last } = await pollUntilSettled(adapter, target(), await submitted());
    expect(last).toEqual({ kind: "failed", code, message: "it went wrong" });
  });

  test("a 503 from the result call without fal's error markers is a retry, not a failure", async () => {
    mock.nextJob = { statuses: ["COMPLETED"], result: { kind: "video" } };
    const ref = await submitted();
    mock.fail(/^GET \/fal-ai\/veo3\.1\/requests\/[^/]+$/, { status: 503, body: { detail: "Service Unavailable" }, headers: { "retry-after": "3" } });
    expect(await adapter.poll(target(), ref, never)).toEqual({ kind: "retry", status: 503, reason: "HTTP 503: Service Unavailable", retryAfterSeconds: 3 });
    expect((await adapter.poll(target(), ref, never)).kind).toBe("completed");
  });

  test("a slow upstream within the limit is waited for", async () => {
    const ref = await submitted();
    mock.fail(/\/status$/, { delayMs: 120 });
    expect(await adapter.poll(target(), ref, never)).toEqual({ kind: "pending" });
  });
});

describe("cancel", () => {
  test("PUTs the cancel URL with the key; a queued request is cancelled upstream", async () => {
    mock.nextJob = { statuses: ["IN_QUEUE"], result: { kind: "video" } };
    const ref = await submitted();
    await adapter.cancel!(target(), ref, never);
    const sent = mock.requests.at(-1)!;
    expect([sent.method, sent.path, sent.headers.authorization]).toEqual(["PUT", `/fal-ai/veo3.1/requests/${ref.request_id}/cancel`, `Key ${mock.key}`]);
    expect(mock.jobs.get(ref.request_id!)!.cancelled).toBe(true);
  });

  test("a 400 (already running) does not throw", async () => {
    mock.nextJob = { statuses: ["IN_PROGRESS"], result: { kind: "video" } };
    const ref = await submitted();
    await adapter.poll(target(), ref, never);
    expect(await adapter.cancel!(target(), ref, never)).toBeUndefined();
    expect(mock.jobs.get(ref.request_id!)!.cancelled).toBe(false);
  });
});
