// POST /api/v1/audio/speech through @openrouter/sdk 1.3.19: the audio streamed as it arrives.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createInferenceKey } from "../../support/gateway";
import { errorOf, generationOf, keyUsage, type MediaHarness, startMediaHarness, upstreamCalls } from "./setup";

let h: MediaHarness;
beforeAll(async () => {
  h = await startMediaHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  for (const m of [h.audioA, h.audioB]) {
    m.speechBodies.length = 0;
    m.calls.length = 0;
    m.holdLast = false;
    m.speechContentType = undefined;
  }
});

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const speak = (json: Record<string, unknown>, key = h.key) =>
  h.gw.api("/api/v1/audio/speech", { method: "POST", key, json: { model: "openai/tts-1", ...json } });

describe("speech", () => {
  test("tts.createSpeech: the exact upstream body, the upstream's bytes, characters × the price = total_cost = the rise of the key's usage", async () => {
    const before = await keyUsage(h.gw, h.key);
    const audio = await h.sdk.tts.createSpeech({ speechRequest: { model: "openai/tts-1", input: "Hello from the gateway", user: "u", sessionId: "s" } });
    expect(await readAll(audio)).toEqual(h.audioA.speechBytes());
    // the SDK sends pcm when no format is named; the first voice is the default
    expect(h.audioA.speechBodies).toEqual([{ model: "tts-1", input: "Hello from the gateway", voice: "alloy", response_format: "pcm" }]);
    // 22 characters at $15 per million
    expect(await keyUsage(h.gw, h.key)).toBeCloseTo(before + 0.00033, 12);
  });

  test("the record: api_type tts, the cost in Unicode code points, time to first byte; Content-Type by format when the upstream's is not audio", async () => {
    h.audioA.speechContentType = "application/octet-stream";
    const res = await speak({ input: "héllo 👋", voice: "coral", response_format: "mp3", speed: 1.5 });
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "audio/mpeg"]);
    expect(await readAll(res.body!)).toEqual(h.audioA.speechBytes());
    expect(h.audioA.speechBodies).toEqual([{ model: "tts-1", input: "héllo 👋", voice: "coral", response_format: "mp3", speed: 1.5 }]);
    const g = await generationOf(h.gw, h.key, res.headers.get("x-generation-id")!);
    // 7 code points × $0.000015
    expect([g.api_type, g.model, g.provider_name, g.total_cost, g.usage, g.num_media_completion]).toEqual([
      "tts",
      "openai/tts-1",
      "audio-a",
      0.000105,
      0.000105,
      null,
    ]);
    expect(g.time_to_first_token).toBeGreaterThanOrEqual(0);
  });

  test("the first bytes reach the client while the upstream still holds the last; the record commits when the audio ends", async () => {
    h.audioA.holdLast = true;
    const res = await speak({ input: "stream me", response_format: "wav" });
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "audio/wav"]);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.value!.byteLength).toBeGreaterThan(0);
    const id = res.headers.get("x-generation-id")!;
    expect((await h.gw.api(`/api/v1/generation?id=${id}`, { key: h.key })).status).toBe(404);
    h.audioA.release();
    const parts = [first.value!];
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
    expect(new Uint8Array(Buffer.concat(parts.map((p) => new Uint8Array(p))))).toEqual(h.audioA.speechBytes());
    expect((await generationOf(h.gw, h.key, id)).total_cost).toBe(0.000135);
  });

  test("a client that leaves mid-audio: the generation is recorded as cancelled, charged for the input the upstream took", async () => {
    h.audioA.holdLast = true;
    const res = await speak({ input: "leave early", response_format: "mp3" });
    const reader = res.body!.getReader();
    await reader.read();
    // the upstream still holds its last bytes: only the client's leaving can end this answer
    await reader.cancel();
    const id = res.headers.get("x-generation-id")!;
    let g: Record<string, any> | undefined;
    for (let i = 0; i < 50 && !g; i++) {
      const r = await h.gw.api(`/api/v1/generation?id=${id}`, { key: h.key });
      if (r.status === 200) g = ((await r.json()) as { data: Record<string, any> }).data;
      else await Bun.sleep(20);
    }
    // 11 characters × $0.000015
    expect([g?.cancelled, g?.total_cost]).toEqual([true, 0.000165]);
    h.audioA.release();
  });

  test("allowed passthrough (instructions) goes to its provider; speed is dropped where the endpoint takes none; failover on 500 at the next endpoint's price", async () => {
    h.audioA.fail("/audio/speech", { status: 500 });
    const res = await speak({
      input: "fallback",
      speed: 2,
      response_format: "mp3",
      provider: { options: { "audio-a": { instructions: "calm" }, "audio-b": { parameters: { instructions: "never sent" } } } },
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).error.metadata).toEqual({ field: "provider.options.audio-b.parameters.instructions", allowed: [] });
    const ok = await speak({ input: "fallback", speed: 2, response_format: "mp3", provider: { options: { "audio-a": { instructions: "calm" } } } });
    expect(ok.status).toBe(200);
    await readAll(ok.body!);
    expect(h.audioB.speechBodies).toEqual([{ model: "tts-1-b", input: "fallback", voice: "alloy", response_format: "mp3" }]);
    const g = await generationOf(h.gw, h.key, ok.headers.get("x-generation-id")!);
    expect(g.provider_responses.map((a: any) => [a.provider_name, a.status])).toEqual([
      ["audio-a", 500],
      ["audio-b", 200],
    ]);
    // 8 characters at $30 per million
    expect(g.total_cost).toBe(0.00024);
    const direct = await speak({ input: "calm", provider: { options: { "audio-a": { instructions: "calm" } } } });
    await readAll(direct.body!);
    expect(h.audioA.speechBodies.at(-1)).toEqual({ model: "tts-1", input: "calm", voice: "alloy", response_format: "pcm", instructions: "calm" });
  });

  test("an input over one endpoint's limit goes to one that takes it", async () => {
    const long = "a".repeat(150);
    const res = await speak({ input: long, response_format: "mp3" });
    await readAll(res.body!);
    expect([h.audioA.speechBodies.length, h.audioB.speechBodies.length]).toEqual([0, 1]);
  });
});

describe("validation, money and auth", () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ["empty input", { input: "" }, { field: "input" }],
    ["input over every endpoint's limit", { input: "x".repeat(4097) }, { field: "input", maximum: 4096 }],
    ["a voice not listed", { input: "x", voice: "onyx" }, { field: "voice", allowed: ["alloy", "coral", "verse"] }],
    ["a format not listed", { input: "x", response_format: "opus" }, { field: "response_format", allowed: ["mp3", "pcm", "wav"] }],
  ];
  for (const [what, fields, metadata] of cases)
    test(`400: ${what}; nothing upstream`, async () => {
      const calls = upstreamCalls(h);
      const err = await errorOf(await speak(fields));
      expect([err.status, err.error.metadata]).toEqual([400, metadata]);
      for (const value of (metadata.allowed as string[] | undefined) ?? []) expect(err.error.message).toContain(value);
      expect(upstreamCalls(h)).toBe(calls);
    });

  test("a model of another kind is 404; 402 when the characters do not fit the key's limit; 401 and 403", async () => {
    expect((await speak({ model: "openai/whisper-1", input: "x" })).status).toBe(404);
    // 100 characters: $0.0015 first, $0.003 on the second endpoint
    const { key } = await createInferenceKey(h.gw, { name: "tight", limit: 0.001 });
    const calls = upstreamCalls(h);
    expect((await speak({ input: "y".repeat(100) }, key)).status).toBe(402);
    expect(upstreamCalls(h)).toBe(calls);
    expect((await speak({ input: "x" }, null as never)).status).toBe(401);
    expect((await h.gw.api("/api/v1/audio/speech", { method: "POST", json: { input: 3 } })).status).toBe(403);
  });
});
