// Guardrails on the four media operations (issue 42), through the lifecycle's one policy step:
// content filters screen the text each one sends upstream (an image's prompt, the text to speak
// and its instructions, a transcription's passed-through prompt, a rerank's query and documents;
// never audio bytes), redact what the upstream receives, block with 403 before anything is sent,
// flag on the generation; allow and ignore lists, data policy and budgets apply to each as to chat.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createInferenceKey } from "../../support/gateway";
import { sha256, wavBytes } from "../../support/media-mocks/wav";
import { guardedKey } from "../guardrails/harness";
import { errorOf, generationOf, type MediaHarness, mediaYaml, startMediaHarness, upstreamCalls } from "./setup";

let h: MediaHarness;
beforeAll(async () => {
  h = await startMediaHarness({
    // whisper-1 on audio-a takes a passed-through prompt; audio-b keeps no data
    yaml: (m) =>
      mediaYaml(m)
        .replace(
          "model: whisper-1, input_formats: [wav, mp3, flac],",
          "model: whisper-1, input_formats: [wav, mp3, flac], allowed_passthrough_parameters: [prompt],",
        )
        .replace(
          `base_url: "${m.audioB.url}", api_key: audio-key-b }`,
          `base_url: "${m.audioB.url}", api_key: audio-key-b, zdr: true, data_collection: deny }`,
        ),
  });
});
afterAll(() => h.close());
beforeEach(() => {
  for (const m of [h.imgA, h.imgB, h.audioA, h.audioB, h.rerankA, h.rerankB]) m.calls.length = 0;
  for (const m of [h.imgA, h.imgB, h.rerankA, h.rerankB]) m.bodies.length = 0;
  for (const m of [h.audioA, h.audioB]) {
    m.speechBodies.length = 0;
    m.uploads.length = 0;
  }
});

const WAV = wavBytes(1);
const post = (key: string, path: string, json: Record<string, unknown>) => h.gw.api(`/api/v1${path}`, { method: "POST", key, json });

/** Each media operation: a request carrying `text` where a user writes, and the text the upstream received. */
const operations = {
  image: {
    send: (key: string, text: string) => post(key, "/images", { model: "openai/gpt-image-1", prompt: text, quality: "low" }),
    received: () => h.imgA.bodies.map((b) => b.prompt),
  },
  speech: {
    send: (key: string, text: string) => post(key, "/audio/speech", { model: "openai/tts-1", input: text }),
    received: () => h.audioA.speechBodies.map((b) => b.input),
  },
  transcription: {
    send: (key: string, text: string) =>
      post(key, "/audio/transcriptions", {
        model: "openai/whisper-1",
        input_audio: { data: Buffer.from(WAV).toString("base64"), format: "wav" },
        provider: { options: { "audio-a": { prompt: text } } },
      }),
    received: () => h.audioA.uploads.map((u) => u.fields.find(([name]) => name === "prompt")?.[1]),
  },
  rerank: {
    send: (key: string, text: string) => post(key, "/rerank", { model: "cohere/rerank-v3.5", query: text, documents: ["a", "b"] }),
    received: () => h.rerankA.bodies.map((b) => b.query),
  },
} as const;

const API_TYPE = { image: "image", speech: "tts", transcription: "stt", rerank: "rerank" } as const;

describe("content filters", () => {
  for (const [name, op] of Object.entries(operations)) {
    test(`${name}: redact sends the labels upstream, never the matches; block is a 403 with nothing sent; flag forwards and is on the record`, async () => {
      const redacting = await guardedKey(h.gw, {
        content_filter_builtins: [
          { slug: "email", action: "redact" },
          { slug: "credit-card", action: "redact" },
        ],
        content_filters: [{ pattern: "Project \\w+", action: "redact", label: "[CODENAME]" }],
      });
      const served = await op.send(redacting.key, "Project Falcon for ann@example.com, card 4111 1111 1111 1111");
      expect(served.status).toBe(200);
      await served.arrayBuffer();
      expect(op.received()).toEqual(["[CODENAME] for [EMAIL], card [CREDIT_CARD]"]);
      const record = await generationOf(h.gw, redacting.key, served.headers.get("x-generation-id")!);
      expect(record.api_type).toBe(API_TYPE[name as keyof typeof API_TYPE]);

      const blocking = await guardedKey(h.gw, { content_filter_builtins: [{ slug: "email", action: "block" }] });
      const refused = await op.send(blocking.key, "write to ann@example.com");
      expect(refused.headers.get("x-generation-id")).toMatch(/^gen-/);
      expect(await errorOf(refused)).toEqual({ status: 403, error: { code: 403, message: "Request blocked by content filter: Email address" } });
      expect(op.received()).toHaveLength(1);
      expect(await h.gw.ctx.store.reservations.held(blocking.hash)).toBe(0);

      const flagging = await guardedKey(h.gw, { content_filter_builtins: [{ slug: "email", action: "flag" }] });
      const flagged = await op.send(flagging.key, "write to ann@example.com");
      expect(flagged.status).toBe(200);
      await flagged.arrayBuffer();
      expect(op.received()).toEqual(["[CODENAME] for [EMAIL], card [CREDIT_CARD]", "write to ann@example.com"]);
      await h.gw.ctx.generations.settled();
      const id = flagged.headers.get("x-generation-id")!;
      expect((await h.gw.ctx.store.generations.get(id))?.guardrailFlags).toEqual(["Email address"]);
      expect((await generationOf(h.gw, flagging.key, id)).api_type).toBe(API_TYPE[name as keyof typeof API_TYPE]);
      // a clean request records no flag
      const clean = await op.send(flagging.key, "write to me");
      await clean.arrayBuffer();
      await h.gw.ctx.generations.settled();
      expect((await h.gw.ctx.store.generations.get(clean.headers.get("x-generation-id")!))?.guardrailFlags).toBeUndefined();
      expect(upstreamCalls(h)).toBe(3);
    });
  }

  test("speech: instructions passed through are screened too (flat or under parameters); the charge counts the characters spoken", async () => {
    const { key } = await guardedKey(h.gw, { content_filter_builtins: [{ slug: "email", action: "redact" }] });
    const res = await post(key, "/audio/speech", {
      model: "openai/tts-1",
      input: "mail bob@example.com now",
      provider: { options: { "audio-a": { instructions: "calm, for ann@example.com" } } },
    });
    await res.arrayBuffer();
    const nested = await post(key, "/audio/speech", {
      model: "openai/tts-1",
      input: "hello",
      provider: { options: { "audio-a": { parameters: { instructions: "cheerful, cc ann@example.com" } } } },
    });
    await nested.arrayBuffer();
    expect(h.audioA.speechBodies).toEqual([
      { model: "tts-1", input: "mail [EMAIL] now", voice: "alloy", response_format: "pcm", instructions: "calm, for [EMAIL]" },
      { model: "tts-1", input: "hello", voice: "alloy", response_format: "pcm", instructions: "cheerful, cc [EMAIL]" },
    ]);
    // "mail [EMAIL] now": 16 characters at $15 per million
    expect((await generationOf(h.gw, key, res.headers.get("x-generation-id")!)).total_cost).toBe(0.00024);
    const blocking = await guardedKey(h.gw, { content_filter_builtins: [{ slug: "email", action: "block" }] });
    const refused = await post(blocking.key, "/audio/speech", {
      model: "openai/tts-1",
      input: "hello",
      provider: { options: { "audio-a": { instructions: "for ann@example.com" } } },
    });
    expect((await errorOf(refused)).error.message).toBe("Request blocked by content filter: Email address");
    expect(upstreamCalls(h)).toBe(2);
  });

  test("rerank: every document is screened, a {text} document keeps its shape; the answer pairs the scores with the client's own documents", async () => {
    const { key } = await guardedKey(h.gw, { content_filter_builtins: [{ slug: "email", action: "redact" }] });
    const res = await post(key, "/rerank", {
      model: "cohere/rerank-v3.5",
      query: "who wrote to ann@example.com?",
      documents: ["bob@example.com wrote", { text: "nobody" }, { text: "carol@example.com replied" }],
    });
    const body = (await res.json()) as { results: Array<{ index: number; document: { text: string } }> };
    expect(h.rerankA.bodies).toEqual([{ model: "rerank-v3.5", query: "who wrote to [EMAIL]?", documents: ["[EMAIL] wrote", "nobody", "[EMAIL] replied"] }]);
    expect(body.results.map((r) => [r.index, r.document.text])).toEqual([
      [2, "carol@example.com replied"],
      [1, "nobody"],
      [0, "bob@example.com wrote"],
    ]);
    const blocking = await guardedKey(h.gw, { content_filter_builtins: [{ slug: "email", action: "block" }] });
    const refused = await post(blocking.key, "/rerank", { model: "cohere/rerank-v3.5", query: "q", documents: ["x", { text: "to ann@example.com" }] });
    expect((await errorOf(refused)).status).toBe(403);
    expect(upstreamCalls(h)).toBe(1);
  });

  test("transcription: the audio is media, which no filter reads: its bytes go upstream unchanged (multipart and JSON), only the prompt is rewritten", async () => {
    const audio = new Uint8Array([...WAV, ...new TextEncoder().encode("ann@example.com 4111 1111 1111 1111")]);
    const { key } = await guardedKey(h.gw, {
      content_filter_builtins: [
        { slug: "email", action: "block" },
        { slug: "credit-card", action: "redact" },
      ],
    });
    const form = new FormData();
    form.append("file", new File([audio], "talk.wav", { type: "audio/wav" }));
    form.append("model", "openai/whisper-1");
    const multipart = await h.gw.api("/api/v1/audio/transcriptions", { method: "POST", key, body: form });
    expect(multipart.status).toBe(200);
    const json = await post(key, "/audio/transcriptions", {
      model: "openai/whisper-1",
      input_audio: { data: Buffer.from(audio).toString("base64"), format: "wav" },
      provider: { options: { "audio-a": { parameters: { prompt: "card 4111 1111 1111 1111" } } } },
    });
    expect(json.status).toBe(200);
    const file = { size: audio.length, sha256: sha256(audio) };
    expect(h.audioA.uploads.map((u) => [u.fields, { size: u.file?.size, sha256: u.file?.sha256 }])).toEqual([
      [
        [
          ["model", "whisper-1"],
          ["response_format", "json"],
        ],
        file,
      ],
      [
        [
          ["model", "whisper-1"],
          ["response_format", "json"],
          ["prompt", "card [CREDIT_CARD]"],
        ],
        file,
      ],
    ]);
  });
});

describe("models, providers, data policy and budgets", () => {
  test("image: ignore and allow lists; a guardrail's budget drops an endpoint it cannot fit, 402 when none fits, nothing sent", async () => {
    const ignoring = await guardedKey(h.gw, { ignored_providers: ["openai"] });
    expect((await operations.image.send(ignoring.key, "a cat")).status).toBe(200);
    expect(h.imgB.bodies.map((b) => b.model)).toEqual(["gpt-image-1-b"]);
    const allowing = await guardedKey(h.gw, { name: "Only DALL-E", allowed_models: ["openai/dall-e-3"] });
    const refused = await errorOf(await operations.image.send(allowing.key, "a cat"));
    expect([refused.status, refused.error.message]).toEqual([
      404,
      "No endpoints available matching your guardrail restrictions and data policy: guardrail 'Only DALL-E' does not allow model openai/gpt-image-1",
    ]);
    // low quality: $0.011 on openai, $0.02 on img-b
    const capped = await guardedKey(h.gw, { limit_usd: 0.015, reset_interval: "daily" });
    expect((await operations.image.send(capped.key, "a cat")).status).toBe(200);
    const over = await guardedKey(h.gw, { name: "Image cap", limit_usd: 0.005, reset_interval: "daily" });
    const poor = await errorOf(await operations.image.send(over.key, "a cat"));
    expect([poor.status, poor.error.metadata]).toEqual([402, { limit_source: "openrouter_guardrail_budget", guardrail_id: over.guardrailId }]);
    expect(poor.error.message).toContain("guardrail 'Image cap'");
    expect([h.imgA.bodies.length, h.imgB.bodies.length, upstreamCalls(h)]).toEqual([1, 1, 2]);
  });

  test("speech: an ignored provider is dropped; enforce_zdr_openai keeps only the provider with zdr; a budget nothing fits is 402", async () => {
    const ignoring = await guardedKey(h.gw, { ignored_providers: ["audio-a"] });
    await (await operations.speech.send(ignoring.key, "hello")).arrayBuffer();
    const zdr = await guardedKey(h.gw, { enforce_zdr_openai: true });
    await (await operations.speech.send(zdr.key, "hello")).arrayBuffer();
    expect(h.audioB.speechBodies.map((b) => b.model)).toEqual(["tts-1-b", "tts-1-b"]);
    const paid = await guardedKey(h.gw, { enable_paid_model_training: false });
    await (await operations.speech.send(paid.key, "hello")).arrayBuffer();
    expect(h.audioB.speechBodies).toHaveLength(3);
    const over = await guardedKey(h.gw, { limit_usd: 0.00001, reset_interval: "daily" });
    expect((await errorOf(await operations.speech.send(over.key, "hello"))).status).toBe(402);
    expect(upstreamCalls(h)).toBe(3);
  });

  test("transcription: allowed_providers keeps one; a budget drops the endpoint whose longest audio it cannot fit; ignored_models refuses", async () => {
    const allowing = await guardedKey(h.gw, { allowed_providers: ["Audio Cloud B"] });
    expect((await operations.transcription.send(allowing.key, "p")).status).toBe(200);
    // the worst case: 1500 s at $0.0001 on audio-a ($0.15), 600 s at $0.0002 on audio-b ($0.12)
    const capped = await guardedKey(h.gw, { limit_usd: 0.13, reset_interval: "daily" });
    expect((await operations.transcription.send(capped.key, "p")).status).toBe(200);
    expect(h.audioB.uploads.map((u) => u.fields[0])).toEqual([
      ["model", "whisper-b"],
      ["model", "whisper-b"],
    ]);
    const ignoring = await guardedKey(h.gw, { ignored_models: ["openai/whisper-1"] });
    expect((await errorOf(await operations.transcription.send(ignoring.key, "p"))).status).toBe(404);
    expect(upstreamCalls(h)).toBe(2);
  });

  test("rerank: ignored_providers and a budget pick the other endpoint; a budget nothing fits is 402; a plain key is untouched", async () => {
    const ignoring = await guardedKey(h.gw, { ignored_providers: ["Rerank Cloud A"] });
    expect((await operations.rerank.send(ignoring.key, "q")).status).toBe(200);
    // two documents: $0.002 a search on rerank-a, $0.0001 on rerank-b
    const capped = await guardedKey(h.gw, { limit_usd: 0.001, reset_interval: "daily" });
    expect((await operations.rerank.send(capped.key, "q")).status).toBe(200);
    expect(h.rerankB.bodies.map((b) => b.model)).toEqual(["rerank-b", "rerank-b"]);
    const over = await guardedKey(h.gw, { limit_usd: 0.00001, reset_interval: "daily" });
    expect((await errorOf(await operations.rerank.send(over.key, "q"))).status).toBe(402);
    const plain = await createInferenceKey(h.gw);
    expect((await operations.rerank.send(plain.key, "q")).status).toBe(200);
    expect([h.rerankA.bodies.length, upstreamCalls(h)]).toEqual([1, 3]);
  });
});
