// The openai-videos adapter against the loopback mock speaking OpenAI's wire shapes.
import { afterAll, expect, test } from "bun:test";
import { openAiVideosAdapter } from "../../../src/videos/adapters/openai-videos";
import { freePort } from "../../support/gateway-process";
import { startOpenAiVideoMock } from "../../support/video-mocks/openai-videos";

const mock = startOpenAiVideoMock({ bytes: 10 });
afterAll(() => mock.stop());
const target = () => ({ baseUrl: mock.url, apiKey: "video-key", model: "sora-2", headers: { "X-Extra": "1" } });
const signal = new AbortController().signal;
const request = { prompt: "a fox", durationSeconds: 8, aspectRatio: "9:16", resolution: "720p", passthrough: { quality: "high" } };

test("create sends the multipart fields; retrieve walks queued, in_progress, completed with the content URL", async () => {
  const submitted = await openAiVideosAdapter.submit(target(), request, signal);
  expect(submitted).toEqual({ kind: "submitted", ref: { id: "video_1" } });
  expect(mock.creates.at(-1)).toEqual({ model: "sora-2", prompt: "a fox", seconds: "8", size: "720x1280", quality: "high" });
  const ref = { id: "video_1" };
  expect(await openAiVideosAdapter.poll(target(), ref, signal)).toEqual({ kind: "pending" });
  expect(await openAiVideosAdapter.poll(target(), ref, signal)).toEqual({ kind: "in_progress", progress: 0.5 });
  expect(await openAiVideosAdapter.poll(target(), ref, signal)).toEqual({
    kind: "completed",
    outputs: [{ url: `${mock.url}/videos/video_1/content`, headers: { "X-Extra": "1", Authorization: "Bearer video-key" }, contentType: "video/mp4" }],
    billedSeconds: 8,
  });
});

test("a failed generation carries the upstream's message; moderation is content_filtered", async () => {
  mock.mode = { kind: "fail", code: "moderation_blocked", message: "blocked" };
  mock.queuedPolls = 0;
  mock.progressPolls = 0;
  try {
    const submitted = await openAiVideosAdapter.submit(target(), request, signal);
    if (submitted.kind !== "submitted") throw new Error("not submitted");
    expect(await openAiVideosAdapter.poll(target(), submitted.ref, signal)).toEqual({ kind: "failed", code: "content_filtered", message: "blocked" });
  } finally {
    mock.mode = { kind: "ok" };
    mock.queuedPolls = 1;
    mock.progressPolls = 1;
  }
});

test("create errors: 400 fails as invalid_request, 429 and 503 retry (with Retry-After), a refused connection retries, 401 fails", async () => {
  mock.createErrors = [400, 503, 429];
  expect(await openAiVideosAdapter.submit(target(), request, signal)).toEqual({
    kind: "failed",
    code: "invalid_request",
    message: "create: HTTP 400: create failed with 400",
  });
  expect(await openAiVideosAdapter.submit(target(), request, signal)).toEqual({
    kind: "retry",
    status: 503,
    reason: "create: HTTP 503: create failed with 503",
  });
  expect(await openAiVideosAdapter.submit(target(), request, signal)).toMatchObject({ kind: "retry", reason: "create: HTTP 429: create failed with 429" });
  expect(await openAiVideosAdapter.submit({ ...target(), apiKey: "wrong" }, request, signal)).toEqual({
    kind: "failed",
    code: "upstream_error",
    message: "create: HTTP 401: bad key",
  });
  const down = await openAiVideosAdapter.submit({ ...target(), baseUrl: `http://127.0.0.1:${await freePort()}/v1` }, request, signal);
  expect(down.kind).toBe("retry");
  expect(await openAiVideosAdapter.poll(target(), { id: "video_404" }, signal)).toEqual({
    kind: "failed",
    code: "upstream_error",
    message: "retrieve: HTTP 404: no such video",
  });
});

test("a first frame is input_reference[image_url]; a last frame or other references are refused rather than dropped", async () => {
  const frame = { frame: "first_frame" as const, url: "data:image/png;base64,iVBORw0KGgo=" };
  expect((await openAiVideosAdapter.submit(target(), { ...request, frameImages: [frame] }, signal)).kind).toBe("submitted");
  expect(mock.creates.at(-1)).toEqual({
    model: "sora-2",
    prompt: "a fox",
    seconds: "8",
    size: "720x1280",
    quality: "high",
    "input_reference[image_url]": frame.url,
  });
  const creates = mock.creates.length;
  expect(
    await openAiVideosAdapter.submit(target(), { ...request, frameImages: [frame, { frame: "last_frame", url: "https://x.example/b.png" }] }, signal),
  ).toMatchObject({ kind: "failed", code: "invalid_request" });
  expect(await openAiVideosAdapter.submit(target(), { ...request, inputReferences: [{ url: "https://x.example/r.png" }] }, signal)).toMatchObject({
    kind: "failed",
    code: "invalid_request",
  });
  expect(mock.creates.length).toBe(creates);
});
