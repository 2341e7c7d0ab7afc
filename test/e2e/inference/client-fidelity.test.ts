// Small things real clients read: OpenRouter's `provider` on Chat answers (exposed by
// @openrouter/ai-sdk-provider), and the openai SDK's models.retrieve("author/slug").
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createOpenRouter } from "@openrouter/ai-sdk-provider";
import { generateText, streamText } from "ai";
import { sseJson } from "../../support/sse";
import { type Harness, MODEL, minimalBody, PROVIDER, post, startHarness, UPSTREAMS } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

describe("Chat answers name the provider that served", () => {
  for (const upstream of UPSTREAMS) {
    test(`${upstream}: JSON and every stream chunk carry provider`, async () => {
      const json = (await (await post(h, "chat", minimalBody("chat", MODEL[upstream]))).json()) as { provider: string };
      expect(json.provider).toBe(PROVIDER[upstream]);
      const stream = await (await post(h, "chat", minimalBody("chat", MODEL[upstream], { stream: true }))).text();
      const chunks = sseJson(stream);
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.map((c) => c.provider)).toEqual(chunks.map(() => PROVIDER[upstream]));
    });

    test(`${upstream}: @openrouter/ai-sdk-provider exposes it, generateText and streamText`, async () => {
      const openrouter = createOpenRouter({ baseURL: `${h.gw.url}/api/v1`, apiKey: h.key });
      const generated = await generateText({ model: openrouter.chat(MODEL[upstream]), prompt: "hi", maxRetries: 0 });
      expect(generated.text).toBe("Hello from mock");
      expect(generated.providerMetadata?.openrouter?.provider).toBe(PROVIDER[upstream]);
      const streamed = streamText({ model: openrouter.chat(MODEL[upstream]), prompt: "hi", maxRetries: 0 });
      expect(await streamed.text).toBe("Hello from mock");
      expect((await streamed.providerMetadata)?.openrouter?.provider).toBe(PROVIDER[upstream]);
    });
  }
});

describe("models.retrieve with an author/slug id", () => {
  test("the openai SDK's percent-encoded id resolves to the model as /models lists it", async () => {
    const model = await h.openai.models.retrieve("t/anth");
    const listed = ((await (await h.gw.api("/api/v1/models")).json()) as { data: Array<{ id: string }> }).data.find((m) => m.id === "t/anth");
    expect(model as unknown).toEqual(listed);
    expect(model.id).toBe("t/anth");
  });

  test("an unknown id is a 404 naming it", async () => {
    const res = await h.gw.api("/api/v1/models/t%2Fnope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 404, message: "Model not found: t/nope" } });
    expect((await h.gw.api("/api/v1/models/nope")).status).toBe(404);
  });
});
