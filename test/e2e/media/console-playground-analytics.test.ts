// The console's Playground over the media operations (images, speech, transcription, rerank),
// each the gateway's own with one of the viewer's keys: exact upstream bodies, answers, costs and
// records; and the console's analytics by kind (api_type) with the images returned and the cost of each.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey } from "../../support/gateway";
import { sha256, wavBytes } from "../../support/media-mocks/wav";
import { type ConsoleGateway, startConsoleGateway } from "../console/harness";
import { generationOf, keyUsage, type MediaMocks, mediaYaml, startMediaMocks } from "./setup";

let mocks: MediaMocks;
let cg: ConsoleGateway;
let key: string;
let hash: string;
const ids: Record<string, string> = {};

type Json = Record<string, any>;
const post = async (path: string, body: unknown, who: "owner" | "member" = "owner") => {
  const res = await cg.call(who, "POST", `/console/api${path}`, body);
  return { res, id: res.headers.get("x-generation-id") };
};

beforeAll(async () => {
  mocks = startMediaMocks();
  cg = await startConsoleGateway({ yaml: mediaYaml(mocks) });
  ({ key, hash } = await createInferenceKey(cg.gw, { name: "playground media" }));
});
afterAll(async () => {
  await cg.close();
  for (const m of Object.values(mocks)) m.stop();
});

describe("the Playground's media operations", () => {
  test("the models of every kind, with the choices their forms show and whether a key can serve them", async () => {
    const res = await cg.call("member", "GET", "/console/api/playground/models");
    expect(res.status).toBe(200);
    const media = ((await res.json()) as { data: Json[] }).data.filter((m) => m.kind !== "chat");
    expect(media).toEqual([
      {
        id: "openai/gpt-image-1",
        name: "OpenAI: GPT Image 1",
        kind: "image",
        available: true,
        sizes: ["1024x1024", "1536x1024", "1024x1536"],
        qualities: ["low", "medium", "high"],
        max_images: 4,
      },
      { id: "openai/dall-e-3", name: "openai/dall-e-3", kind: "image", available: true, sizes: ["1024x1024", "1792x1024"], qualities: [], max_images: 1 },
      { id: "acme/byok-image", name: "acme/byok-image", kind: "image", available: false, sizes: ["1024x1024"], qualities: [], max_images: 1 },
      // pcm is left out: an <audio> element cannot play it
      { id: "openai/tts-1", name: "OpenAI: TTS 1", kind: "speech", available: true, voices: ["alloy", "coral", "verse"], response_formats: ["mp3", "wav"] },
      { id: "openai/whisper-1", name: "OpenAI: Whisper", kind: "transcription", available: true, input_formats: ["wav", "mp3", "flac"] },
      { id: "acme/small-stt", name: "acme/small-stt", kind: "transcription", available: true, input_formats: ["wav"] },
      { id: "cohere/rerank-v3.5", name: "Cohere: Rerank 3.5", kind: "rerank", available: true, max_documents: 1000 },
    ]);
  });

  test("images: the upstream body as POST /api/v1/images sends it, the images, the cost charged to the key and recorded", async () => {
    const before = await keyUsage(cg.gw, key);
    const { res, id } = await post("/playground/images", { key_hash: hash, model: "openai/gpt-image-1", prompt: "two foxes", n: 2 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(mocks.imgA.bodies.at(-1)).toEqual({ model: "gpt-image-1", prompt: "two foxes", n: 2, size: "1024x1024", quality: "low" });
    expect(body.id).toBe(id!);
    expect(body.data.map((d: Json) => [d.media_type, Buffer.from(d.b64_json, "base64").equals(Buffer.from(mocks.imgA.image(body.data.indexOf(d))))])).toEqual([
      ["image/png", true],
      ["image/png", true],
    ]);
    // 2 images at $0.011 (1024x1024/low)
    expect(body.usage).toEqual({ prompt_tokens: 50, completion_tokens: 4160, total_tokens: 4210, cost: 0.022 });
    const record = await generationOf(cg.gw, key, id!);
    expect([record.api_type, record.model, record.total_cost, record.num_media_completion]).toEqual(["image", "openai/gpt-image-1", 0.022, 2]);
    expect(await keyUsage(cg.gw, key)).toBeCloseTo(before + 0.022, 12);
    ids.image = id!;
  });

  test("speech: the audio streamed back with its type; the cost in the record", async () => {
    const { res, id } = await post("/playground/speech", { key_hash: hash, model: "openai/tts-1", input: "hello", voice: "coral", response_format: "mp3" });
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "audio/mpeg"]);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(mocks.audioA.speechBytes());
    expect(mocks.audioA.speechBodies.at(-1)).toEqual({ model: "tts-1", input: "hello", voice: "coral", response_format: "mp3" });
    // 5 characters at $15 per million
    const record = await generationOf(cg.gw, key, id!);
    expect([record.api_type, record.total_cost]).toEqual(["tts", 0.000075]);
    ids.tts = id!;
  });

  test("transcription: base64 audio as the SDK's JSON sends it, the file passed on as audio.wav, the text and the seconds billed", async () => {
    const wav = wavBytes(2);
    const { res, id } = await post("/playground/transcriptions", {
      key_hash: hash,
      model: "openai/whisper-1",
      input_audio: { data: Buffer.from(wav).toString("base64"), format: "wav" },
      language: "en",
    });
    expect(res.status).toBe(200);
    // the mock reports 12 seconds; $0.006 a minute
    expect(await res.json()).toEqual({ text: "The quick brown fox jumps over the lazy dog.", usage: { seconds: 12, cost: 0.0012 } });
    expect(mocks.audioA.uploads.at(-1)).toEqual({
      fields: [
        ["model", "whisper-1"],
        ["response_format", "json"],
        ["language", "en"],
      ],
      file: { name: "audio.wav", type: "audio/x-wav", size: wav.byteLength, sha256: sha256(wav) },
    });
    const record = await generationOf(cg.gw, key, id!);
    expect([record.api_type, record.total_cost]).toEqual(["stt", 0.0012]);
    ids.stt = id!;
  });

  test("rerank: the documents ranked with their scores; one search unit", async () => {
    const documents = ["Paris is the capital of France", "Bananas are yellow", "France borders Spain"];
    const { res, id } = await post("/playground/rerank", { key_hash: hash, model: "cohere/rerank-v3.5", query: "capital of France", documents });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(mocks.rerankA.bodies.at(-1)).toEqual({ model: "rerank-v3.5", query: "capital of France", documents });
    expect(body.results.map((r: Json) => r.document.text).sort()).toEqual([...documents].sort());
    expect(body.usage).toEqual({ search_units: 1, cost: 0.002 });
    const record = await generationOf(cg.gw, key, id!);
    expect([record.api_type, record.total_cost]).toEqual(["rerank", 0.002]);
    ids.rerank = id!;
  });

  test("refused as the chat Playground refuses: another's key 404, a management key 400, the gateway's validation 400 naming the field", async () => {
    const image = { model: "openai/gpt-image-1", prompt: "fox" };
    const calls = upstream();
    expect((await post("/playground/images", { key_hash: hash, ...image }, "member")).res.status).toBe(404);
    const keys = ((await (await cg.call("owner", "GET", "/console/api/keys")).json()) as { data: Array<{ hash: string; is_management: boolean }> }).data;
    const management = keys.find((k) => k.is_management)!.hash;
    const refused = await post("/playground/images", { key_hash: management, ...image });
    expect([refused.res.status, ((await refused.res.json()) as Json).error.metadata.field]).toEqual([400, "key_hash"]);
    const bad = await post("/playground/images", { key_hash: hash, ...image, size: "9x9" });
    expect(bad.res.status).toBe(400);
    expect(((await bad.res.json()) as Json).error.metadata.field).toBe("size");
    const wrongKind = await post("/playground/speech", { key_hash: hash, model: "openai/gpt-image-1", input: "hi" });
    expect(wrongKind.res.status).toBe(404);
    expect(upstream()).toBe(calls);
  });
});

const upstream = () => Object.values(mocks).reduce((n, m) => n + m.calls.length, 0);

describe("the console's analytics by kind", () => {
  const query = (extra: Json) =>
    cg.call("owner", "POST", "/console/api/analytics/query", { metrics: ["request_count", "total_usage", "media_completions"], ...extra });

  test("one row per api_type: requests, the cost of each, and the images image generations returned", async () => {
    const res = await query({ dimensions: ["api_type"], order_by: { field: "api_type", direction: "asc" } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).data.data).toEqual([
      { api_type: "image", request_count: 1, total_usage: 0.022, media_completions: 2 },
      { api_type: "rerank", request_count: 1, total_usage: 0.002, media_completions: 0 },
      { api_type: "stt", request_count: 1, total_usage: 0.0012, media_completions: 0 },
      { api_type: "tts", request_count: 1, total_usage: 0.000075, media_completions: 0 },
    ]);
  });

  test("filtered to one kind or several; the meta names the dimension and the metric", async () => {
    const image = await query({ filters: [{ field: "api_type", operator: "eq", value: "image" }] });
    expect(((await image.json()) as Json).data.data).toEqual([{ request_count: 1, total_usage: 0.022, media_completions: 2 }]);
    const audio = await query({
      filters: [{ field: "api_type", operator: "in", value: ["tts", "stt"] }],
      dimensions: ["model"],
      order_by: { field: "model", direction: "asc" },
    });
    expect(((await audio.json()) as Json).data.data).toEqual([
      { model: "openai/tts-1", request_count: 1, total_usage: 0.000075, media_completions: 0 },
      { model: "openai/whisper-1", request_count: 1, total_usage: 0.0012, media_completions: 0 },
    ]);
    const meta = ((await (await cg.call("owner", "GET", "/console/api/analytics/meta")).json()) as Json).data;
    expect(meta.dimensions.at(-1)).toEqual({ name: "api_type", display_label: "API Type" });
    expect(meta.metrics.find((m: Json) => m.name === "media_completions")).toEqual({
      name: "media_completions",
      display_label: "Media Completions",
      is_rate: false,
      display_format: "number",
    });
  });
});
