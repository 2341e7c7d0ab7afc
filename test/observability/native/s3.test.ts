/** The S3 destination against the loopback S3 mock: object key layout, the trace document read back, probes, error classes. */
import { afterAll, beforeEach, expect, test } from "bun:test";
import { s3Sender } from "../../../src/observability/native/s3";
import { classifyS3Error } from "../../../src/observability/native/s3-errors";
import { renderPathTemplate, traceObjectKey } from "../../../src/observability/native/s3-object-key";
import { loopbackDeps } from "../../support/native-sender-deps";
import { chatGeneration, destinationOf, embeddingGeneration, STARTED_AT, videoGeneration } from "../../support/observed-generation";
import { startS3Mock } from "../../support/s3-mock";

const s3 = startS3Mock();
afterAll(() => s3.stop());
beforeEach(() => {
  s3.objects.clear();
  s3.requests.length = 0;
});

const config = {
  bucketName: "traces",
  accessKeyId: "AKIDTEST",
  secretAccessKey: "secret-test-key",
  region: "us-east-1",
  endpoint: s3.url,
  prefix: "openrouter-traces",
  pathTemplate: "{prefix}/{date}",
};
const destination = (extra: Record<string, unknown> = {}) => destinationOf("s3", { ...config, ...extra });
const stored = () =>
  [...s3.objects.entries()].map(([name, object]) => ({
    name,
    contentType: object.contentType,
    json: JSON.parse(new TextDecoder().decode(object.bytes)) as Record<string, any>,
  }));

test("one JSON object per trace at {prefix}/{date}/{traceId}-{timestamp}.json, signed with SigV4", async () => {
  expect(await s3Sender.send(chatGeneration(), destination(), loopbackDeps())).toEqual({ kind: "delivered" });
  const [object] = stored();
  expect(object!.name).toMatch(new RegExp(`^traces/openrouter-traces/2026-11-22/[0-9a-f]{32}-${STARTED_AT}\\.json$`));
  expect(object!.contentType).toStartWith("application/json");
  expect(s3.requests.every((r) => r.auth === "AWS4-HMAC-SHA256")).toBe(true);
});

test("the body read back is the trace and its observations, usage and cost named as OpenRouter's JSON model", async () => {
  await s3Sender.send(chatGeneration(), destination(), loopbackDeps());
  const { json } = stored()[0]!;
  expect(json.trace).toMatchObject({
    name: "Support bot",
    sessionId: "session-42",
    userId: "end-user-7",
    metadata: { customer_tier: "gold", api_key_name: "Production key" },
  });
  expect(json.trace.input.messages).toHaveLength(2);
  const [generation, first] = json.observations;
  expect(generation).toMatchObject({
    type: "GENERATION",
    name: "answer",
    model: "acme/alpha",
    promptTokens: 120,
    completionTokens: 45,
    totalTokens: 165,
    promptTokensDetails: { cachedTokens: 20, cacheWriteTokens: null },
    completionTokensDetails: { reasoningTokens: 5 },
    inputCost: 0.00012,
    outputCost: 0.0003,
    totalCost: 0.00042,
    completionStartTime: new Date(STARTED_AT + 320).toISOString(),
  });
  expect(first).toMatchObject({ type: "SPAN", parentObservationId: generation.id, level: "ERROR", name: "provider attempt 1: flaky-cloud" });
  expect(generation.traceId).toBe(json.trace.id);
});

test("a retry writes the same key (overwrites, never a second object)", async () => {
  await s3Sender.send(chatGeneration(), destination(), loopbackDeps());
  await s3Sender.send(chatGeneration(), destination(), loopbackDeps());
  expect(s3.objects.size).toBe(1);
});

test("pathTemplate variables: {year}/{month}/{day}, a sanitized {apiKeyName}, and the session token", async () => {
  await s3Sender.send(
    embeddingGeneration({ keyName: "Team A/../prod key" }),
    destination({ pathTemplate: "{prefix}/{year}/{month}/{day}/{apiKeyName}", sessionToken: "session-tok" }),
    loopbackDeps(),
  );
  await s3Sender.send(videoGeneration(), destination({ prefix: "/nested/../deep/" }), loopbackDeps());
  const names = stored().map((o) => o.name);
  expect(names[0]).toMatch(/^traces\/openrouter-traces\/2026\/11\/22\/Team_A_.._prod_key\/[0-9a-f]{32}-\d+\.json$/);
  expect(names[1]).toMatch(/^traces\/nested\/deep\/2026-11-22\//);
  const [embedding, video] = stored().map((o) => o.json);
  expect(embedding!.observations[0].output).toBeUndefined();
  expect(video!.observations.map((o: { type: string }) => o.type)).toEqual(["SPAN", "GENERATION", "SPAN"]);
});

test("object keys never climb out of the prefix", () => {
  expect(renderPathTemplate("{prefix}/../{date}", { prefix: "../../etc", startedAt: STARTED_AT, apiKeyName: null })).toBe("etc/2026-11-22");
  expect(traceObjectKey("{prefix}/{unknown}", { prefix: "p", startedAt: STARTED_AT, apiKeyName: null }, "abc")).toBe(`p/_unknown_/abc-${STARTED_AT}.json`);
});

test("the probe puts {prefix}/.connection-test.json", async () => {
  expect(await s3Sender.probe(destination(), loopbackDeps())).toEqual({ ok: true });
  expect([...s3.objects.keys()]).toEqual(["traces/openrouter-traces/.connection-test.json"]);
});

test("a private endpoint is refused when private URLs are not allowed", async () => {
  const deps = { ...loopbackDeps(), allowPrivateUrls: false };
  expect(await s3Sender.send(chatGeneration(), destination(), deps)).toMatchObject({ kind: "failed", reason: expect.stringContaining("endpoint") });
  expect(await s3Sender.probe(destination(), deps)).toMatchObject({ ok: false });
  expect(s3.requests).toHaveLength(0);
});

test("S3 errors: AccessDenied and NoSuchBucket fail, SlowDown/InternalError/the network are retried", async () => {
  const refusing = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      await req.arrayBuffer();
      const [status, code] = codes.shift()!;
      return new Response(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`, {
        status,
        headers: { "content-type": "application/xml" },
      });
    },
  });
  const codes: [number, string][] = [
    [403, "AccessDenied"],
    [404, "NoSuchBucket"],
    [503, "SlowDown"],
    [500, "InternalError"],
    [403, "AccessDenied"],
  ];
  try {
    const at = destination({ endpoint: `http://127.0.0.1:${refusing.port}` });
    const send = () => s3Sender.send(chatGeneration(), at, loopbackDeps());
    expect(await send()).toMatchObject({ kind: "failed", reason: expect.stringContaining("AccessDenied") });
    expect(await send()).toMatchObject({ kind: "failed", reason: expect.stringContaining("NoSuchBucket") });
    expect(await send()).toMatchObject({ kind: "retry", reason: expect.stringContaining("SlowDown") });
    expect((await send()).kind).toBe("retry");
    expect(await s3Sender.probe(at, loopbackDeps())).toMatchObject({ ok: false, message: expect.stringContaining("s3:PutObject") });
  } finally {
    refusing.stop(true);
  }
  const closed = destination({ endpoint: "http://127.0.0.1:1" });
  expect((await s3Sender.send(chatGeneration(), closed, loopbackDeps())).kind).toBe("retry");
  expect(classifyS3Error(new TypeError("fetch failed"))).toMatchObject({ kind: "retry" });
});
