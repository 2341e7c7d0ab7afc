/** The Gemini API Veo adapter against a loopback mock of predictLongRunning + operations + file download. */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import type { OutboundOptions } from "../../../src/outbound/client";
import type { HostLookup } from "../../../src/outbound/host-lookup";
import type { VideoRequest, VideoTarget } from "../../../src/videos/adapters/adapter";
import { createGeminiVeoAdapter } from "../../../src/videos/adapters/gemini-veo";
import { download, never, pollUntilSettled, submitOrThrow } from "../../support/video-mocks/drive";
import { startGeminiVeoMock } from "../../support/video-mocks/gemini-veo";
import { VIDEO_BYTES } from "../../support/video-mocks/mock-server";

const mock = startGeminiVeoMock();
afterAll(() => mock.stop());
beforeEach(() => {
  mock.requests.length = 0;
  mock.nextJob = { pendingPolls: 1, outcome: { kind: "video" } };
});

const loopbackLookup: HostLookup = async () => [{ address: "127.0.0.1", family: 4 }];
const permissive: OutboundOptions = {
  allowPrivate: true,
  lookup: loopbackLookup,
  lookupTimeoutMs: 1_000,
  totalTimeoutMs: 2_000,
  connectTimeoutMs: 1_000,
  maxResponseBytes: 64 * 1024,
};
const adapter = createGeminiVeoAdapter({ outbound: permissive, timeoutMs: 300 });
const target = (model = "veo-3.1-generate-preview"): VideoTarget => ({ baseUrl: mock.baseUrl, apiKey: mock.key, model, headers: {} });
const request = (extra: Partial<VideoRequest> = {}): VideoRequest => ({ prompt: "a lighthouse in a storm", passthrough: {}, ...extra });

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const PNG_B64 = Buffer.from(PNG).toString("base64");

const submitted = (r = request()) => submitOrThrow(adapter, target(), r);

describe("submit", () => {
  test("predictLongRunning with x-goog-api-key; parameters translated, seed and audio left out, passthrough merged into parameters", async () => {
    const ref = await submitted(
      request({
        durationSeconds: 8,
        resolution: "4K",
        aspectRatio: "9:16",
        seed: 1,
        generateAudio: true,
        passthrough: { negativePrompt: "fog", durationSeconds: 6 },
      }),
    );
    const sent = mock.requests[0]!;
    expect([sent.method, sent.path]).toEqual(["POST", "/v1beta/models/veo-3.1-generate-preview:predictLongRunning"]);
    expect(sent.headers["x-goog-api-key"]).toBe(mock.key);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({
      instances: [{ prompt: "a lighthouse in a storm" }],
      parameters: { aspectRatio: "9:16", resolution: "4k", durationSeconds: 6, negativePrompt: "fog" },
    });
    expect(ref.operation).toMatch(/^models\/veo-3\.1-generate-preview\/operations\/[\w-]+$/);
  });

  test("a size becomes aspectRatio + resolution", async () => {
    await submitted(request({ size: "1280x720" }));
    expect((mock.requests[0]!.body as { parameters: unknown }).parameters).toEqual({ aspectRatio: "16:9", resolution: "720p" });
  });

  test("frame images are fetched through the outbound client and sent inline as base64", async () => {
    const first = mock.serveFile(PNG, "image/png");
    await submitted(
      request({
        frameImages: [
          { frame: "first_frame", url: first },
          { frame: "last_frame", url: `data:image/jpeg;base64,${PNG_B64}` },
        ],
      }),
    );
    const fetched = mock.requests.find((r) => r.path.startsWith("/files/"))!;
    expect([fetched.method, fetched.headers["x-goog-api-key"]]).toEqual(["GET", undefined]);
    const create = mock.requests.find((r) => r.method === "POST")!;
    expect((create.body as { instances: unknown[] }).instances[0]).toEqual({
      prompt: "a lighthouse in a storm",
      image: { bytesBase64Encoded: PNG_B64, mimeType: "image/png" },
      lastFrame: { bytesBase64Encoded: PNG_B64, mimeType: "image/jpeg" },
    });
  });

  test("input references become up to three asset referenceImages", async () => {
    const url = mock.serveFile(PNG, "image/png");
    await submitted(request({ inputReferences: [{ url }, { url }, { url }, { url }] }));
    const instance = (mock.requests.find((r) => r.method === "POST")!.body as { instances: Array<{ referenceImages: unknown[] }> }).instances[0]!;
    expect(instance.referenceImages).toEqual(Array(3).fill({ image: { bytesBase64Encoded: PNG_B64, mimeType: "image/png" }, referenceType: "asset" }));
  });

  test("a private image URL is refused by the outbound policy, and nothing is submitted", async () => {
    const strict = createGeminiVeoAdapter({ outbound: { ...permissive, allowPrivate: false } });
    const outcome = await strict.submit(target(), request({ frameImages: [{ frame: "first_frame", url: mock.serveFile(PNG, "image/png") }] }), never);
    expect(outcome).toEqual({ kind: "failed", code: "invalid_request", message: "image URL must use https" });
    expect(mock.requests.filter((r) => r.method === "POST")).toEqual([]);
  });

  test("an image URL answering 404 or a non-image fails invalid_request", async () => {
    const missing = await adapter.submit(target(), request({ frameImages: [{ frame: "first_frame", url: `${mock.url}/files/none` }] }), never);
    expect(missing).toEqual({ kind: "failed", code: "invalid_request", message: "image URL answered HTTP 404" });
    const notImage = await adapter.submit(target(), request({ frameImages: [{ frame: "first_frame", url: mock.serveFile(PNG, "text/html") }] }), never);
    expect(notImage).toEqual({ kind: "failed", code: "invalid_request", message: "image URL answered text/html, not an image" });
  });

  test("429 RESOURCE_EXHAUSTED with Retry-After is a retry; 400 INVALID_ARGUMENT fails", async () => {
    mock.fail(/^POST /, {
      status: 429,
      body: { error: { code: 429, message: "Resource has been exhausted (e.g. check quota).", status: "RESOURCE_EXHAUSTED" } },
      headers: { "retry-after": "30" },
    });
    expect(await adapter.submit(target(), request(), never)).toEqual({
      kind: "retry",
      status: 429,
      reason: "HTTP 429: RESOURCE_EXHAUSTED: Resource has been exhausted (e.g. check quota).",
      retryAfterSeconds: 30,
    });
    mock.fail(/^POST /, { status: 400, body: { error: { code: 400, message: "durationSeconds must be 8 for 1080p", status: "INVALID_ARGUMENT" } } });
    expect(await adapter.submit(target(), request(), never)).toEqual({
      kind: "failed",
      code: "invalid_request",
      message: "INVALID_ARGUMENT: durationSeconds must be 8 for 1080p",
    });
  });
});

describe("poll", () => {
  test("not done → in_progress; done → the sample, downloadable with the key (redirected to the bytes)", async () => {
    const ref = await submitted();
    const { seen, last } = await pollUntilSettled(adapter, target(), ref);
    expect(seen).toEqual(["in_progress", "completed"]);
    if (last.kind !== "completed") throw new Error("not completed");
    expect(last.outputs).toHaveLength(1);
    expect(last.outputs[0]!.url).toMatch(new RegExp(`^${mock.baseUrl}/files/[\\w-]+:download\\?alt=media$`));
    expect(last.outputs[0]!.headers).toEqual({ "x-goog-api-key": mock.key });
    expect(await download(last.outputs[0]!)).toEqual({ status: 200, bytes: VIDEO_BYTES });
    expect((await download({ url: last.outputs[0]!.url })).status).toBe(403);
    expect(mock.requests.find((r) => r.path === `/v1beta/${ref.operation}`)!.headers["x-goog-api-key"]).toBe(mock.key);
  });

  test("two samples are two outputs", async () => {
    mock.nextJob = { pendingPolls: 0, outcome: { kind: "video", samples: 2 } };
    const { last } = await pollUntilSettled(adapter, target(), await submitted());
    expect(last.kind === "completed" && last.outputs.length).toBe(2);
  });

  test.each([
    [3, "INVALID_ARGUMENT", "invalid_request"],
    [4, "DEADLINE_EXCEEDED", "timeout"],
    [8, "RESOURCE_EXHAUSTED", "rate_limited"],
    [13, "INTERNAL", "upstream_error"],
  ] as const)("done with error code %i (%s) fails as %s", async (code, _status, expected) => {
    mock.nextJob = { pendingPolls: 0, outcome: { kind: "error", code, message: "generation failed" } };
    expect((await pollUntilSettled(adapter, target(), await submitted())).last).toEqual({ kind: "failed", code: expected, message: "generation failed" });
  });

  test("done with no samples and raiMediaFilteredCount is content_filtered with the reasons", async () => {
    const reasons = ["Unable to generate video: the prompt may violate our policies."];
    mock.nextJob = { pendingPolls: 0, outcome: { kind: "filtered", reasons } };
    expect((await pollUntilSettled(adapter, target(), await submitted())).last).toEqual({ kind: "failed", code: "content_filtered", message: reasons[0]! });
  });

  test("a hanging poll is a retry; 503 with an HTTP-date Retry-After is a retry in seconds", async () => {
    const ref = await submitted();
    mock.fail(/^GET \/v1beta\/models/, { hang: true });
    expect(await adapter.poll(target(), ref, never)).toEqual({ kind: "retry", reason: "no answer within 300 ms" });
    mock.fail(/^GET \/v1beta\/models/, {
      status: 503,
      body: { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } },
      headers: { "retry-after": new Date(Date.now() + 10_500).toUTCString() },
    });
    const outcome = await adapter.poll(target(), ref, never);
    expect(outcome.kind === "retry" && outcome.retryAfterSeconds).toBeOneOf([10, 11]);
  });

  test("an aborted signal is a retry, never a throw", async () => {
    const ref = await submitted();
    const aborted = AbortSignal.abort();
    expect(await adapter.poll(target(), ref, aborted)).toEqual({ kind: "retry", reason: "aborted" });
  });

  test("has no cancel", () => {
    expect(adapter.cancel).toBeUndefined();
  });
});
