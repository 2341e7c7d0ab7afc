// Golden matrix, inputs that change shape between formats: images (URL and base64) and
// structured output (chat response_format, Responses text.format, Anthropic output_config,
// Gemini responseMimeType + responseJsonSchema).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { call, FINISH } from "./drivers";
import { FORMAT, INBOUNDS, MODEL, startHarness, UPSTREAMS, type Harness, type Inbound, type UpstreamKind } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

const MATRIX = INBOUNDS.flatMap((inbound) => UPSTREAMS.flatMap((upstream) => [false, true].map((stream) => ({ inbound, upstream, stream }))));
const label = (c: { inbound: Inbound; upstream: UpstreamKind; stream: boolean }) => `${c.inbound} -> ${c.upstream} ${c.stream ? "stream" : "json"}`;

const URL_IMAGE = "https://images.example.com/cat.png";
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const DATA_URL = `data:image/png;base64,${PNG_BASE64}`;

/** The user turn with both images, as each upstream kind must receive it. */
function expectImages(inbound: Inbound, upstream: UpstreamKind, body: any) {
  if (FORMAT[upstream] === "gemini") {
    // a URL goes as fileData (its type read from the extension), a data URL inline
    expect(body.contents).toEqual([
      {
        role: "user",
        parts: [{ text: "What are these?" }, { fileData: { mimeType: "image/png", fileUri: URL_IMAGE } }, { inlineData: { mimeType: "image/png", data: PNG_BASE64 } }],
      },
    ]);
  } else if (upstream === "openai-chat") {
    // a Responses client always names the detail level, and it travels on
    const detail = inbound === "responses" ? { detail: "auto" } : {};
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What are these?" },
          { type: "image_url", image_url: { url: URL_IMAGE, ...detail } },
          { type: "image_url", image_url: { url: DATA_URL, ...detail } },
        ],
      },
    ]);
  } else if (upstream === "openai-responses") {
    expect(body.input).toEqual([
      {
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "What are these?" },
          { type: "input_image", image_url: URL_IMAGE, detail: "auto" },
          { type: "input_image", image_url: DATA_URL, detail: "auto" },
        ],
      },
    ]);
  } else {
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What are these?" },
          { type: "image", source: { type: "url", url: URL_IMAGE } },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } },
        ],
      },
    ]);
  }
}

describe("images by URL and base64 reach the upstream in its shape", () => {
  for (const c of MATRIX) {
    test(label(c), async () => {
      h.up.enqueue({ text: ["Two ", "cats."] });
      const a = await call(h, c.inbound, c.stream, {
        model: MODEL[c.upstream],
        turns: [{ role: "user", text: "What are these?", images: [{ kind: "url", url: URL_IMAGE }, { kind: "base64", mediaType: "image/png", data: PNG_BASE64 }] }],
      });
      expect(a.text).toBe("Two cats.");
      expectImages(c.inbound, c.upstream, h.lastRequest().body);
    });
  }
});

const SCHEMA = {
  type: "object",
  properties: { answer: { type: "string" }, confidence: { type: "number" } },
  required: ["answer", "confidence"],
  additionalProperties: false,
};
const JSON_ANSWER = '{"answer":"42","confidence":0.9}';

describe("structured output maps to the upstream's own field", () => {
  for (const c of MATRIX) {
    test(label(c), async () => {
      h.up.enqueue({ text: ['{"answer":', '"42","confidence":0.9}'] });
      const a = await call(h, c.inbound, c.stream, { model: MODEL[c.upstream], schema: { name: "answer", schema: SCHEMA }, turns: [{ role: "user", text: "Answer as JSON" }] });
      expect(a.text).toBe(JSON_ANSWER);
      expect(a.finish).toBe(FINISH[c.inbound].stop);
      const body = h.lastRequest().body;
      // Anthropic's output_config has neither a name nor `strict`; those the other two formats carry
      const named = c.inbound !== "messages";
      if (c.upstream === "openai-chat") {
        expect(body.response_format.type).toBe("json_schema");
        expect(body.response_format.json_schema.schema).toEqual(SCHEMA);
        if (named) expect(body.response_format.json_schema).toEqual({ name: "answer", schema: SCHEMA, strict: true });
        else expect(typeof body.response_format.json_schema.name).toBe("string");
      } else if (c.upstream === "openai-responses") {
        expect(body.text.format.type).toBe("json_schema");
        expect(body.text.format.schema).toEqual(SCHEMA);
        if (named) expect(body.text.format).toEqual({ type: "json_schema", name: "answer", schema: SCHEMA, strict: true });
        else expect(typeof body.text.format.name).toBe("string");
      } else if (FORMAT[c.upstream] === "gemini") {
        // an Anthropic client always names max_tokens (the driver's 1000)
        const limit = c.inbound === "messages" ? { maxOutputTokens: 1000 } : {};
        expect(body.generationConfig).toEqual({ ...limit, responseMimeType: "application/json", responseJsonSchema: SCHEMA });
      } else {
        expect(body.output_config).toEqual({ format: { type: "json_schema", schema: SCHEMA } });
      }
    });
  }

  test("json_object mode", async () => {
    h.up.enqueue({ text: "{}" }, { text: "{}" }, { text: "{}" });
    const body = (model: string) => ({ model, messages: [{ role: "user" as const, content: "json" }], response_format: { type: "json_object" as const } });
    await h.openai.chat.completions.create(body(MODEL["openai-chat"]));
    expect(h.lastRequest().body.response_format).toEqual({ type: "json_object" });
    await h.openai.chat.completions.create(body(MODEL["openai-responses"]));
    expect(h.lastRequest().body.text).toEqual({ format: { type: "json_object" } });
    await h.openai.chat.completions.create(body(MODEL["anthropic-messages"]));
    expect(h.lastRequest().body.output_config).toEqual({ format: { type: "json_schema", schema: { type: "object", additionalProperties: true } } });
    h.up.enqueue({ text: "{}" });
    await h.openai.chat.completions.create(body(MODEL.gemini));
    expect(h.lastRequest().body.generationConfig).toEqual({ responseMimeType: "application/json" });
  });
});
