// Speech, transcription and rerank models in GET /api/v1/models, through @openrouter/sdk 1.3.19.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type MediaHarness, sdkOf, startMediaHarness } from "./setup";

let h: MediaHarness;
beforeAll(async () => {
  h = await startMediaHarness();
});
afterAll(() => h.close());

const ids = async (outputModalities?: string) => {
  const page = await sdkOf(h.gw, "public").models.list(outputModalities === undefined ? {} : { outputModalities });
  return page.result.data.map((m) => m.id);
};

test("listed only when output_modalities names their kind, or all; image models never", async () => {
  expect(await ids()).toEqual([]);
  expect(await ids("speech")).toEqual(["openai/tts-1"]);
  expect(await ids("transcription,rerank")).toEqual(["openai/whisper-1", "acme/small-stt", "cohere/rerank-v3.5"]);
  expect(await ids("all")).toEqual(["openai/tts-1", "openai/whisper-1", "acme/small-stt", "cohere/rerank-v3.5"]);
  const count = (await (await h.gw.api("/api/v1/models/count?output_modalities=speech")).json()) as { data: { count: number } };
  expect(count.data.count).toBe(1);
});

test("each with its modalities, its kind's price strings and, for speech, its voices", async () => {
  const page = await sdkOf(h.gw, "public").models.list({ outputModalities: "all" });
  const byId = new Map(page.result.data.map((m) => [m.id, m]));
  const tts = byId.get("openai/tts-1")!;
  expect([tts.name, tts.architecture.inputModalities, tts.architecture.outputModalities, tts.pricing, tts.supportedVoices, tts.supportedParameters]).toEqual([
    "OpenAI: TTS 1",
    ["text"],
    ["speech"],
    { prompt: "0.000015", completion: "0" },
    ["alloy", "coral", "verse"],
    ["voice", "response_format", "speed"],
  ] as never);
  const whisper = byId.get("openai/whisper-1")!;
  expect([whisper.architecture.inputModalities, whisper.architecture.outputModalities, whisper.pricing, whisper.supportedVoices]).toEqual([
    ["audio"],
    ["transcription"],
    { prompt: "0", completion: "0", audio: "0.0001" },
    null,
  ] as never);
  const rerank = byId.get("cohere/rerank-v3.5")!;
  expect([rerank.architecture.inputModalities, rerank.architecture.outputModalities, rerank.pricing]).toEqual([
    ["text"],
    ["rerank"],
    { prompt: "0", completion: "0", request: "0.002" },
  ] as never);
});
