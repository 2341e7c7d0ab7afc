// Transcription uploads under their size limits: a 413 as soon as Content-Length or the bytes read so
// far show the file cannot fit (the rest is never waited for), and a 20 MB upload held about once in
// memory by a gateway running as its own process.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInferenceKey, startTestGateway, type TestGateway, tempDir } from "../../support/gateway";
import { type GatewayProcess, startGatewayProcess } from "../../support/gateway-process";
import { type AudioMock, startAudioMock } from "../../support/media-mocks/openai-audio";
import { sha256, wavBytes } from "../../support/media-mocks/wav";

const smallYaml = (url: string) => `
catalog: { default: false }
providers:
  - { slug: audio, api: openai-audio, base_url: "${url}", api_key: audio-key }
transcription_models:
  - id: acme/small-stt
    endpoints:
      - { provider: audio, model: small, input_formats: [wav], max_file_mb: 1, max_duration_seconds: 60, pricing: { per_second: "0.001" } }
`;

/** Sends a request head and the first bytes of its body over a raw socket, never the rest; resolves with the status the server answers. */
function headOnly(url: string, head: string, firstBytes: string): Promise<{ status: number; ms: number }> {
  const { hostname, port } = new URL(url);
  const began = performance.now();
  return new Promise((resolve, reject) => {
    let received = "";
    void Bun.connect({
      hostname,
      port: Number(port),
      socket: {
        open(socket) {
          socket.write(`${head}\r\n\r\n${firstBytes}`);
        },
        data(socket, data) {
          received += data.toString();
          const status = /^HTTP\/1\.1 (\d{3})/.exec(received);
          if (status) {
            socket.end();
            resolve({ status: Number(status[1]), ms: performance.now() - began });
          }
        },
        error: (_socket, err) => reject(err),
      },
    });
  });
}

describe("413 before the file is read", () => {
  let up: AudioMock;
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    up = startAudioMock();
    gw = await startTestGateway({ yaml: smallYaml(up.url) });
    ({ key } = await createInferenceKey(gw));
  });
  afterAll(async () => {
    await gw.close();
    up.stop();
  });

  const head = (contentType: string, length: number) =>
    [`POST /api/v1/audio/transcriptions HTTP/1.1`, `Host: x`, `Authorization: Bearer ${key}`, `Content-Type: ${contentType}`, `Content-Length: ${length}`].join(
      "\r\n",
    );

  test("a multipart Content-Length over the largest file any model takes: 413 at once, naming file", async () => {
    const res = await headOnly(gw.url, head("multipart/form-data; boundary=XX", 5 * 1024 * 1024), "--XX\r\n");
    expect(res.status).toBe(413);
    expect(res.ms).toBeLessThan(2000);
  });

  test("a JSON Content-Length over what the largest file makes in base64: 413 at once", async () => {
    const res = await headOnly(gw.url, head("application/json", 3 * 1024 * 1024), `{"model":"acme/small-stt","input_audio":{"data":"`);
    expect(res.status).toBe(413);
  });

  test("a chunked upload is refused once the bytes read pass the limit, though the client never finishes", async () => {
    const head = new TextEncoder().encode(`--XX\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`);
    const chunk = new Uint8Array(256 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        // a file part's head, 1.5 MB of it, then nothing more: the answer must not wait for an end that never comes
        if (sent >= 7) return new Promise<void>(() => {});
        controller.enqueue(sent++ === 0 ? head : chunk);
      },
    });
    const res = await fetch(`${gw.url}/api/v1/audio/transcriptions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "multipart/form-data; boundary=XX" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { metadata: unknown } }).error.metadata).toEqual({ field: "file", maximum_mb: 1 });
    expect(up.uploads.length).toBe(0);
  });
});

/** The resident set of a process, in bytes (Linux). */
const rssOf = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

describe("a 20 MB upload in a gateway process", () => {
  let up: AudioMock;
  let gw: GatewayProcess;
  let key: string;
  beforeAll(async () => {
    up = startAudioMock();
    const dir = tempDir();
    const config = join(dir, "gateway.yaml");
    await Bun.write(config, smallYaml(up.url).replace("max_file_mb: 1", "max_file_mb: 25"));
    gw = await startGatewayProcess({ GATEWAY_CONFIG: config, DATABASE_URL: `file:${join(dir, "gateway.db")}`, WORKERS: "0" });
    const res = await gw.api("/api/v1/keys", { method: "POST", json: { name: "rss" } });
    key = ((await res.json()) as { key: string }).key;
  });
  afterAll(async () => {
    await gw.stop();
    up.stop();
  });

  test("goes through byte for byte with the gateway's RSS rising by at most 3× the file, and falling back after", async () => {
    const file = wavBytes(655.36); // 20 MiB of samples and a 44-byte header
    const upload = () => {
      const form = new FormData();
      form.append("file", new File([file], "long.wav", { type: "audio/wav" }));
      form.append("model", "acme/small-stt");
      return fetch(`${gw.url}/api/v1/audio/transcriptions`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
    };
    // one upload first, so what the runtime allocates once (JIT, pools) is not counted as the upload's
    expect((await upload()).status).toBe(200);
    await Bun.sleep(1000);
    const pid = gw.proc.pid;
    const before = rssOf(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 5);
    const res = await upload();
    clearInterval(sampler);
    peak = Math.max(peak, rssOf(pid));
    expect(res.status).toBe(200);
    expect(up.uploads.at(-1)!.file).toEqual({ name: "long.wav", type: "audio/x-wav", size: file.length, sha256: sha256(file) });
    // the gateway's usual settling: its RSS goes down again within some seconds
    let after = rssOf(pid);
    for (let i = 0; i < 50 && after > before + file.length / 2; i++) {
      await Bun.sleep(200);
      after = rssOf(pid);
    }
    console.log(
      `file ${(file.length / 2 ** 20).toFixed(1)} MiB; RSS before ${(before / 2 ** 20).toFixed(1)} MiB, peak +${((peak - before) / 2 ** 20).toFixed(1)} MiB, after +${((after - before) / 2 ** 20).toFixed(1)} MiB`,
    );
    expect(peak - before).toBeLessThanOrEqual(3 * file.length);
    expect(after - before).toBeLessThanOrEqual(file.length / 2);
  }, 60_000);
});
