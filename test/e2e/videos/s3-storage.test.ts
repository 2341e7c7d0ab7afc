// Video outputs in an S3-compatible bucket (storage.s3): the worker streams the upstream output
// into the loopback mock bucket, /content serves it from there byte for byte (whole and a Range),
// nothing lands in the data directory, and at the end of retention the object is deleted (410).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type S3Mock, startS3Mock } from "../../support/s3-mock";
import { until } from "../../support/until";
import { type OpenAiVideoMock, startOpenAiVideoMock } from "../../support/video-mocks/openai-videos";
import { videoYaml } from "./setup";

let up: OpenAiVideoMock;
let s3: S3Mock;
let gw: TestGateway;
let key: string;

beforeAll(async () => {
  // more than one 5 MiB part
  up = startOpenAiVideoMock({ bytes: 6_000_000 });
  s3 = startS3Mock();
  const storage = `storage: { s3: { bucket: clips, endpoint: "${s3.url}", region: us-east-1, access_key_id: AKIDE2E, secret_access_key: "\${S3_SECRET}", prefix: gw } }`;
  // about 4 s of retention
  gw = await startTestGateway({
    yaml: videoYaml(up.url, storage).replace("retention_days: 1", "retention_days: 0.00005"),
    env: { WORKERS: "1", S3_SECRET: "e2e-secret-access-key" },
  });
  key = (await createInferenceKey(gw, { name: "s3" })).key;
});
afterAll(async () => {
  await gw.close();
  s3.stop();
  up.stop();
});

test("the output is stored in the bucket and downloaded from it byte for byte, then expires", async () => {
  expect(gw.ctx.config.storage.s3?.secretAccessKey).toBe("e2e-secret-access-key");
  const res = await gw.api("/api/v1/videos", { method: "POST", key, json: { model: "openai/sora-2", prompt: "p", duration: 4 } });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  await until(
    "completed",
    async () => ((await (await gw.api(`/api/v1/videos/${id}`, { key })).json()) as { status: string }).status === "completed" || undefined,
    8_000,
  );

  const objectName = `clips/gw/${id}/0.mp4`;
  expect([...s3.objects.keys()]).toEqual([objectName]);
  expect(s3.objects.get(objectName)!.bytes).toEqual(up.bytes);
  expect(s3.requests.length).toBeGreaterThan(0);
  expect(s3.requests.every((r) => r.auth === "AWS4-HMAC-SHA256")).toBe(true);
  expect((await gw.ctx.store.videoJobs.get(id))!.outputs[0]!.path).toBe(`s3://${objectName}`);
  const videosDir = join(gw.ctx.config.dataDir, "videos");
  expect(existsSync(videosDir) ? readdirSync(videosDir) : []).toEqual([]);

  const gets = () => s3.requests.filter((r) => r.line.startsWith(`GET /${objectName}`)).length;
  const before = gets();
  const whole = await gw.api(`/api/v1/videos/${id}/content`, { key });
  expect(whole.status).toBe(200);
  // served from the local copy of the bucket's object: a file, so with its Content-Length
  expect(whole.headers.get("content-length")).toBe(String(up.bytes.length));
  expect(whole.headers.get("accept-ranges")).toBe("bytes");
  expect(new Uint8Array(await whole.arrayBuffer()) as Uint8Array).toEqual(up.bytes);
  expect(gets()).toBe(before + 1);

  const part = await gw.api(`/api/v1/videos/${id}/content`, { key, headers: { range: "bytes=5242870-5242889" } });
  expect(part.status).toBe(206);
  expect(part.headers.get("content-range")).toBe(`bytes 5242870-5242889/${up.bytes.length}`);
  expect(new Uint8Array(await part.arrayBuffer()) as Uint8Array).toEqual(up.bytes.slice(5242870, 5242890));
  expect((await gw.api(`/api/v1/videos/${id}/content`, { key, headers: { range: `bytes=${up.bytes.length}-` } })).status).toBe(416);

  await until(
    "expired",
    async () => ((await (await gw.api(`/api/v1/videos/${id}`, { key })).json()) as { status: string }).status === "expired" || undefined,
    10_000,
  );
  expect(s3.objects.has(objectName)).toBe(false);
  expect(s3.requests.some((r) => r.line === `DELETE /${objectName}`)).toBe(true);
  expect((await gw.api(`/api/v1/videos/${id}/content`, { key })).status).toBe(410);
  // the retention alone is about 4.3 s: bun's default 5 s left no room for the job's own time
}, 20_000);
