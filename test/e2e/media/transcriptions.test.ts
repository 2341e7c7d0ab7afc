// POST /api/v1/audio/transcriptions through @openrouter/sdk 1.3.19, JSON and multipart.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createInferenceKey } from "../../support/gateway";
import { sha256, wavBytes } from "../../support/media-mocks/wav";
import { errorOf, generationOf, keyUsage, type MediaHarness, startMediaHarness, upstreamCalls } from "./setup";

let h: MediaHarness;
beforeAll(async () => {
  h = await startMediaHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  for (const m of [h.audioA, h.audioB]) {
    m.uploads.length = 0;
    m.calls.length = 0;
    m.seconds = 12;
  }
});

const WAV = wavBytes(2.5);
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** A multipart upload as a client builds it: `file` first, then the fields. */
function form(
  fields: Record<string, string | string[]>,
  file: { bytes: Uint8Array; name: string; type?: string } | null = { bytes: WAV, name: "talk.wav", type: "audio/wav" },
): FormData {
  const f = new FormData();
  if (file) f.append("file", new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type ?? "" }));
  for (const [k, v] of Object.entries(fields)) for (const value of [v].flat()) f.append(k, value);
  return f;
}

const upload = (fields: Record<string, string | string[]>, file?: Parameters<typeof form>[1], key = h.key) =>
  h.gw.api("/api/v1/audio/transcriptions", { method: "POST", key, body: form(fields, file) });
const transcribeJson = (json: Record<string, unknown>, key = h.key) =>
  h.gw.api("/api/v1/audio/transcriptions", { method: "POST", key, json: { model: "openai/whisper-1", ...json } });

describe("transcription", () => {
  test("stt.createTranscription (JSON): the audio goes up as audio.wav, the upstream's seconds × the price = usage.cost = total_cost = the rise of the key's usage", async () => {
    const before = await keyUsage(h.gw, h.key);
    const res = await h.sdk.stt.createTranscription({
      sttRequest: { model: "openai/whisper-1", inputAudio: { data: b64(WAV), format: "wav" }, user: "u", sessionId: "s" },
    });
    expect(res).toEqual({ text: h.audioA.transcript, usage: { seconds: 12, cost: 0.0012 } });
    expect(h.audioA.uploads).toEqual([
      {
        fields: [
          ["model", "whisper-1"],
          ["response_format", "json"],
        ],
        file: { name: "audio.wav", type: "audio/x-wav", size: WAV.length, sha256: sha256(WAV) },
      },
    ]);
    expect(await keyUsage(h.gw, h.key)).toBeCloseTo(before + 0.0012, 12);
  });

  test("stt.createTranscriptionMultipart: the file's bytes and name unchanged, the fields exactly, granularities one field each; verbose_json's details answered", async () => {
    const mp3 = new Uint8Array(5000).map((_, i) => (i * 13) % 256);
    const res = await h.sdk.stt.createTranscriptionMultipart({
      requestBody: {
        file: { fileName: "meeting.mp3", content: mp3 },
        model: "openai/whisper-1",
        language: "en",
        responseFormat: "verbose_json",
        temperature: 0.2,
        timestampGranularities: ["word", "segment"],
        user: "u",
        sessionId: "s",
      },
    });
    expect(h.audioA.uploads).toEqual([
      {
        fields: [
          ["model", "whisper-1"],
          ["response_format", "verbose_json"],
          ["language", "en"],
          ["temperature", "0.2"],
          ["timestamp_granularities[]", "word"],
          ["timestamp_granularities[]", "segment"],
        ],
        file: { name: "meeting.mp3", type: expect.any(String) as never, size: 5000, sha256: sha256(mp3) },
      },
    ]);
    expect(res.text).toBe(h.audioA.transcript);
    expect([res.task, res.language, res.duration, res.usage]).toEqual(["transcribe", "english", 12.5, { seconds: 12, cost: 0.0012 }]);
    expect(res.words!.map((w) => w.word)).toEqual(h.audioA.transcript.split(" "));
    expect(res.segments![0]!.text).toBe(h.audioA.transcript);
  });

  test("the record: api_type stt, the public model, total_cost; seconds from verbose duration, then the WAV header, then the longest audio the endpoint takes", async () => {
    h.audioA.seconds = null;
    const verbose = await upload({ model: "openai/whisper-1", response_format: "verbose_json" });
    expect(((await verbose.json()) as { usage: unknown }).usage).toEqual({ seconds: 12.5, cost: 0.00125 });
    const wav = await upload({ model: "openai/whisper-1" });
    const body = (await wav.json()) as { text: string; usage: unknown };
    expect(body).toEqual({ text: h.audioA.transcript, usage: { seconds: 2.5, cost: 0.00025 } });
    const g = await generationOf(h.gw, h.key, wav.headers.get("x-generation-id")!);
    expect([g.api_type, g.model, g.provider_name, g.total_cost, g.usage, g.is_byok]).toEqual(["stt", "openai/whisper-1", "audio-a", 0.00025, 0.00025, false]);
    const flac = await upload({ model: "openai/whisper-1" }, { bytes: new Uint8Array(100), name: "a.flac" });
    expect(((await flac.json()) as { usage: unknown }).usage).toEqual({ seconds: 1500, cost: 0.15 });
  });

  test("a 503 falls over to the next endpoint, priced per second there; an endpoint that does not take the format is never tried", async () => {
    h.audioA.fail("/audio/transcriptions", { status: 503 });
    const res = await upload({ model: "openai/whisper-1", "timestamp_granularities[]": "word,segment" });
    expect(((await res.json()) as { usage: unknown }).usage).toEqual({ seconds: 12, cost: 0.0024 });
    expect(h.audioB.uploads.map((u) => u.fields)).toEqual([
      [
        ["model", "whisper-b"],
        ["response_format", "json"],
        ["timestamp_granularities[]", "word"],
        ["timestamp_granularities[]", "segment"],
      ],
    ]);
    const g = await generationOf(h.gw, h.key, res.headers.get("x-generation-id")!);
    expect(g.provider_responses.map((a: any) => [a.provider_name, a.status])).toEqual([
      ["audio-a", 503],
      ["audio-b", 200],
    ]);
    h.audioA.fail("/audio/transcriptions", { status: 503 });
    const flac = await upload({ model: "openai/whisper-1" }, { bytes: new Uint8Array(10), name: "a.flac" });
    expect(flac.status).toBe(502);
    expect(h.audioB.uploads.length).toBe(1);
  });
});

describe("validation, limits, money and auth", () => {
  const jsonCases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ["no input_audio", {}, { field: "input_audio" }],
    ["empty audio", { input_audio: { data: "", format: "wav" } }, { field: "input_audio.data" }],
    ["audio that is not base64", { input_audio: { data: "%%%not base64%%%", format: "wav" } }, { field: "input_audio.data" }],
    ["a format not listed", { input_audio: { data: b64(WAV), format: "ogg" } }, { field: "input_audio.format", allowed: ["wav", "mp3", "flac"] }],
    [
      "an answer format not taken",
      { input_audio: { data: b64(WAV), format: "wav" }, response_format: "srt" },
      { field: "response_format", allowed: ["json", "verbose_json"] },
    ],
  ];
  for (const [what, json, metadata] of jsonCases)
    test(`JSON: 400 for ${what}, naming ${metadata.field}; nothing upstream`, async () => {
      const calls = upstreamCalls(h);
      const err = await errorOf(await transcribeJson(json));
      expect([err.status, err.error.metadata]).toEqual([400, metadata]);
      for (const value of (metadata.allowed as string[] | undefined) ?? []) expect(err.error.message).toContain(value);
      expect(upstreamCalls(h)).toBe(calls);
    });

  test("multipart: 400 naming file (missing, a format not listed) or model (missing); 404 for a model of another kind", async () => {
    const calls = upstreamCalls(h);
    expect((await errorOf(await upload({ model: "openai/whisper-1" }, null))).error.metadata).toEqual({ field: "file" });
    const ogg = await errorOf(await upload({ model: "openai/whisper-1" }, { bytes: WAV, name: "talk.ogg" }));
    expect([ogg.status, ogg.error.metadata]).toEqual([400, { field: "file", allowed: ["wav", "mp3", "flac"] }]);
    expect((await errorOf(await upload({}))).error.metadata).toEqual({ field: "model" });
    const other = await upload({ model: "openai/tts-1" });
    expect([other.status, other.headers.get("x-generation-id")?.startsWith("gen-")]).toEqual([404, true]);
    expect(upstreamCalls(h)).toBe(calls);
  });

  test("413 for a file over the model's max_file_mb, naming the field, with the maximum", async () => {
    const big = new Uint8Array(1024 * 1024 + 1);
    const multipart = await errorOf(await upload({ model: "acme/small-stt" }, { bytes: big, name: "big.wav" }));
    expect([multipart.status, multipart.error.metadata]).toEqual([413, { field: "file", maximum_mb: 1 }]);
    const json = await errorOf(await transcribeJson({ model: "acme/small-stt", input_audio: { data: b64(big), format: "wav" } }));
    expect([json.status, json.error.metadata]).toEqual([413, { field: "input_audio", maximum_mb: 1 }]);
  });

  test("402 when the longest audio at the price does not fit the key's limit (1500 s × $0.0001 = $0.15); 401 and 403", async () => {
    const { key } = await createInferenceKey(h.gw, { name: "tight", limit: 0.1 });
    const calls = upstreamCalls(h);
    expect((await upload({ model: "openai/whisper-1" }, undefined, key)).status).toBe(402);
    expect(upstreamCalls(h)).toBe(calls);
    expect((await upload({ model: "openai/whisper-1" }, undefined, null as never)).status).toBe(401);
    expect((await h.gw.api("/api/v1/audio/transcriptions", { method: "POST", body: form({}, null) })).status).toBe(403);
  });
});
