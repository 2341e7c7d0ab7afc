// The media upstream mocks, driven by the providers' official clients before any gateway test
// relies on them: a mock the real client cannot read proves nothing.
import { afterAll, describe, expect, test } from "bun:test";
import { CohereClientV2 } from "cohere-ai";
import OpenAI, { toFile } from "openai";
import { startRerankMock } from "./media-mocks/cohere-rerank";
import { startAudioMock } from "./media-mocks/openai-audio";
import { startImagesMock } from "./media-mocks/openai-images";

const images = startImagesMock();
const audio = startAudioMock();
const rerank = startRerankMock();
afterAll(() => [images, audio, rerank].forEach((m) => m.stop()));

describe("the OpenAI Images mock, through the openai client", () => {
  const client = new OpenAI({ apiKey: "images-key", baseURL: images.url, maxRetries: 0 });

  test("b64_json images with token usage", async () => {
    const res = await client.images.generate({ model: "gpt-image-1", prompt: "a red fox", n: 2, size: "1024x1024", quality: "low" });
    expect(res.data!.map((d) => new Uint8Array(Buffer.from(d.b64_json!, "base64")))).toEqual([images.image(0), images.image(1)]);
    expect(res.usage).toMatchObject({ input_tokens: 50, output_tokens: 4160, total_tokens: 4210 });
    expect(images.bodies.at(-1)).toEqual({ model: "gpt-image-1", prompt: "a red fox", n: 2, size: "1024x1024", quality: "low" });
  });

  test("URL images the client downloads without the key", async () => {
    images.answer = "url";
    const res = await client.images.generate({ model: "dall-e-3", prompt: "a red fox" });
    images.answer = "b64_json";
    const bytes = new Uint8Array(await (await fetch(res.data![0]!.url!)).arrayBuffer());
    expect(bytes).toEqual(images.image(0));
  });

  test("a scripted 429 reaches the client with its Retry-After", async () => {
    images.fail("/images/generations", { status: 429, message: "Rate limit reached", headers: { "retry-after": "7" } });
    const err = await client.images.generate({ model: "gpt-image-1", prompt: "x" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect((err as InstanceType<typeof OpenAI.RateLimitError>).headers.get("retry-after")).toBe("7");
    expect((err as Error).message).toContain("Rate limit reached");
  });
});

describe("the OpenAI Audio mock, through the openai client", () => {
  const client = new OpenAI({ apiKey: "audio-key", baseURL: audio.url, maxRetries: 0 });

  test("speech streams its bytes, the last chunk held until released", async () => {
    audio.holdLast = true;
    const res = await client.audio.speech.create({ model: "tts-1", input: "Hello there", voice: "coral", response_format: "mp3" });
    expect(res.headers.get("content-type")).toBe("audio/mpeg");
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.value!.length).toBeGreaterThan(0);
    audio.release();
    audio.holdLast = false;
    const parts = [first.value!];
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
    expect(new Uint8Array(Buffer.concat(parts.map((p) => new Uint8Array(p))))).toEqual(audio.speechBytes());
    expect(audio.speechBodies.at(-1)).toEqual({ model: "tts-1", input: "Hello there", voice: "coral", response_format: "mp3" });
  });

  test("a transcription upload keeps the file's name and bytes; json and verbose_json answers", async () => {
    const bytes = new Uint8Array(10_000).map((_, i) => i % 256);
    const json = await client.audio.transcriptions.create({ model: "whisper-1", file: await toFile(bytes, "talk.wav", { type: "audio/wav" }) });
    expect(json).toEqual({ text: audio.transcript, usage: { type: "duration", seconds: 12 } } as never);
    const upload = audio.uploads.at(-1)!;
    // Bun's form parser spells audio/wav as audio/x-wav
    expect(upload.file).toEqual({ name: "talk.wav", type: "audio/x-wav", size: 10_000, sha256: new Bun.CryptoHasher("sha256").update(bytes).digest("hex") });
    expect(upload.fields).toEqual([["model", "whisper-1"]]);
    const verbose = await client.audio.transcriptions.create({
      model: "whisper-1",
      file: await toFile(bytes, "talk.wav"),
      response_format: "verbose_json",
      timestamp_granularities: ["word", "segment"],
    });
    expect(verbose.duration).toBe(12.5);
    expect(verbose.words!.map((w) => w.word)).toEqual(audio.transcript.split(" "));
    expect(verbose.segments![0]!.text).toBe(audio.transcript);
    expect(audio.uploads.at(-1)!.fields).toEqual([
      ["model", "whisper-1"],
      ["response_format", "verbose_json"],
      ["timestamp_granularities[]", "word"],
      ["timestamp_granularities[]", "segment"],
    ]);
  });
});

describe("the Cohere rerank mock, through cohere-ai's v2 client", () => {
  const client = new CohereClientV2({ token: "cohere-key", environment: rerank.url });

  test("results in the mock's order, top_n, billed search units", async () => {
    const res = await client.rerank({
      model: "rerank-v3.5",
      query: "capital of the United States",
      documents: ["Carson City", "Saipan", "Washington, D.C."],
      topN: 2,
    });
    expect(res.results).toEqual([
      { index: 2, relevanceScore: 0.9 },
      { index: 1, relevanceScore: 0.8 },
    ]);
    expect(res.meta?.billedUnits?.searchUnits).toBe(1);
    expect(rerank.bodies.at(-1)).toEqual({
      model: "rerank-v3.5",
      query: "capital of the United States",
      documents: ["Carson City", "Saipan", "Washington, D.C."],
      top_n: 2,
    });
  });

  test("a wrong key is Cohere's 401", async () => {
    const bad = new CohereClientV2({ token: "nope", environment: rerank.url });
    const err = await bad.rerank({ model: "rerank-v3.5", query: "q", documents: ["a"] }).catch((e: unknown) => e);
    expect((err as { statusCode?: number }).statusCode).toBe(401);
  });
});
