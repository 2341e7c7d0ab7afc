// The S3 video storage against a loopback S3-compatible mock: a streamed (multipart) upload,
// the exact bytes back whole and as a range, delete, and requests signed with SigV4.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { s3VideoStorage, type VideoStorage } from "../../../src/videos/storage/video-storage";
import { type S3Mock, startS3Mock } from "../../support/s3-mock";

let s3: S3Mock;
let storage: VideoStorage;
const cacheDir = mkdtempSync(join(tmpdir(), "s3-cache-"));

beforeAll(() => {
  s3 = startS3Mock();
  storage = s3VideoStorage(
    { bucket: "videos", endpoint: s3.url, region: "us-east-1", accessKeyId: "AKIDTEST", secretAccessKey: "secret-test-key", prefix: "out/" },
    cacheDir,
  );
});
afterAll(() => {
  s3.stop();
  rmSync(cacheDir, { recursive: true, force: true });
});

// 11 MiB and a bit in 64 KiB chunks: more than two 5 MiB parts, never one buffer
const SIZE = 11 * 1024 * 1024 + 12_345;
const byteAt = (i: number) => (i * 31 + (i >> 16)) & 0xff;
const expected = () => Uint8Array.from({ length: SIZE }, (_, i) => byteAt(i));
function patternStream(): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= SIZE) return c.close();
      const n = Math.min(65_536, SIZE - at);
      c.enqueue(Uint8Array.from({ length: n }, (_, i) => byteAt(at + i)));
      at += n;
    },
  });
}

test("a streamed write comes back byte for byte, whole and as a range, and is deleted", async () => {
  const { location, bytes } = await storage.write("vid_1", 0, patternStream(), "video/mp4");
  expect(location).toBe("s3://videos/out/vid_1/0.mp4");
  expect(bytes).toBe(SIZE);
  expect(s3.objects.get("videos/out/vid_1/0.mp4")?.bytes.byteLength).toBe(SIZE);
  // the writer uploaded in parts
  expect(s3.requests.some((r) => r.line.startsWith("POST /videos/out/vid_1/0.mp4?uploads"))).toBe(true);
  expect(s3.requests.filter((r) => /partNumber=/.test(r.line)).length).toBeGreaterThanOrEqual(2);
  expect(s3.requests.every((r) => r.auth === "AWS4-HMAC-SHA256")).toBe(true);

  const stored = (await storage.open(location))!;
  expect(stored.size).toBe(SIZE);
  expect(new Uint8Array(await new Response(stored.body()).arrayBuffer())).toEqual(expected());
  const range = new Uint8Array(await new Response(stored.body({ start: 5_000_000, end: 5_000_099 })).arrayBuffer());
  expect(range).toEqual(expected().slice(5_000_000, 5_000_100));
  expect(s3.requests.some((r) => r.line === "GET /videos/out/vid_1/0.mp4")).toBe(true);
  // served from a local copy (a file: Bun sends its Content-Length), made once, never whole in memory
  expect(stored.body()).toBeInstanceOf(Blob);
  const gets = () => s3.requests.filter((r) => r.line === "GET /videos/out/vid_1/0.mp4").length;
  const before = gets();
  await new Response((await storage.open(location))!.body()).arrayBuffer();
  expect(gets()).toBe(before);
  expect(readdirSync(cacheDir).filter((f) => f.endsWith(".mp4")).length).toBe(1);

  await storage.deleteJob("vid_1", [location]);
  expect(s3.objects.has("videos/out/vid_1/0.mp4")).toBe(false);
  expect(readdirSync(cacheDir).filter((f) => f.endsWith(".mp4")).length).toBe(0);
  expect(await storage.open(location)).toBeNull();
});

test("a small output is stored too; a location of another storage is not found", async () => {
  const { bytes } = await storage.write("vid_2", 1, new Response("tiny video").body!, "video/mp4");
  expect(bytes).toBe(10);
  expect(new TextDecoder().decode(s3.objects.get("videos/out/vid_2/1.mp4")!.bytes)).toBe("tiny video");
  expect(await storage.open("/data/videos/vid_2/1.mp4")).toBeNull();
  expect(await storage.open("s3://other-bucket/out/vid_2/1.mp4")).toBeNull();
});
