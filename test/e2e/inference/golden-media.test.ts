// Golden matrix, inputs that change shape between formats: images (URL and base64) and
// structured output (chat response_format, Responses text.format, Anthropic output_config,
// Gemini responseMimeType + responseJsonSchema).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { PIXEL_PNG_BASE64 } from "../../support/mock-upstream";
import { call, caseLabel, FINISH, MATRIX } from "./drivers";
import { type Harness, type Inbound, MODEL, startHarness, WIRE, type Wire } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

const URL_IMAGE = "https://images.example.com/cat.png";
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const DATA_URL = `data:image/png;base64,${PNG_BASE64}`;

/** The user turn with both images, as each upstream body format must receive it. */
function expectImages(inbound: Inbound, upstream: Wire, body: any) {
  if (upstream === "gemini") {
    // a URL goes as fileData (its type read from the extension), a data URL inline
    expect(body.contents).toEqual([
      {
        role: "user",
        parts: [
          { text: "What are these?" },
          { fileData: { mimeType: "image/png", fileUri: URL_IMAGE } },
          { inlineData: { mimeType: "image/png", data: PNG_BASE64 } },
        ],
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
  } else if (upstream === "bedrock") {
    // Converse takes no web URL: the gateway fetched the image (the mock's pixel) and sends its bytes
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { text: "What are these?" },
          { image: { format: "png", source: { bytes: PIXEL_PNG_BASE64 } } },
          { image: { format: "png", source: { bytes: PNG_BASE64 } } },
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
    test(caseLabel(c), async () => {
      h.up.enqueue({ text: ["Two ", "cats."] });
      const url = c.upstream === "bedrock" ? `${h.up.url}/images/pixel.png` : URL_IMAGE;
      const a = await call(h, c.inbound, c.stream, {
        model: MODEL[c.upstream],
        turns: [
          {
            role: "user",
            text: "What are these?",
            images: [
              { kind: "url", url },
              { kind: "base64", mediaType: "image/png", data: PNG_BASE64 },
            ],
          },
        ],
      });
      expect(a.text).toBe("Two cats.");
      expectImages(c.inbound, WIRE[c.upstream], h.lastRequest().body);
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

describe("an image URL a Bedrock upstream cannot take", () => {
  test("one the gateway cannot fetch is the request's fault: a 400 naming it, and Bedrock is not called", async () => {
    const res = await h.openai.chat.completions
      .create({ model: MODEL.bedrock, messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: `${h.up.url}/images/missing.png` } }] }] })
      .catch((e: { status: number; message: string }) => e);
    expect([(res as { status: number }).status, (res as { message: string }).message]).toEqual([
      400,
      "400 Provider aws rejected the request: image URL answered HTTP 404",
    ]);
    expect(h.up.requests.map((r) => r.method)).toEqual(["GET"]);
  });
});

describe("structured output maps to the upstream's own field", () => {
  for (const c of MATRIX) {
    test(caseLabel(c), async () => {
      h.up.enqueue({ text: ['{"answer":', '"42","confidence":0.9}'] });
      const a = await call(h, c.inbound, c.stream, {
        model: MODEL[c.upstream],
        schema: { name: "answer", schema: SCHEMA },
        turns: [{ role: "user", text: "Answer as JSON" }],
      });
      expect(a.text).toBe(JSON_ANSWER);
      expect(a.finish).toBe(FINISH[c.inbound].stop);
      const body = h.lastRequest().body;
      // Anthropic's output_config has neither a name nor `strict`; those the other two formats carry
      const named = c.inbound !== "messages";
      if (WIRE[c.upstream] === "openai-chat") {
        expect(body.response_format.type).toBe("json_schema");
        expect(body.response_format.json_schema.schema).toEqual(SCHEMA);
        if (named) expect(body.response_format.json_schema).toEqual({ name: "answer", schema: SCHEMA, strict: true });
        else expect(typeof body.response_format.json_schema.name).toBe("string");
      } else if (c.upstream === "openai-responses") {
        expect(body.text.format.type).toBe("json_schema");
        expect(body.text.format.schema).toEqual(SCHEMA);
        if (named) expect(body.text.format).toEqual({ type: "json_schema", name: "answer", schema: SCHEMA, strict: true });
        else expect(typeof body.text.format.name).toBe("string");
      } else if (c.upstream === "bedrock") {
        // a Claude model on Bedrock takes Anthropic's output_config through additionalModelRequestFields
        expect(body.additionalModelRequestFields).toEqual({ output_config: { format: { type: "json_schema", schema: SCHEMA } } });
      } else if (WIRE[c.upstream] === "gemini") {
        // an Anthropic client always names max_tokens (the driver's 1000)
        const limit = c.inbound === "messages" ? { maxOutputTokens: 1000 } : {};
        expect(body.generationConfig).toEqual({ ...limit, responseMimeType: "application/json", responseJsonSchema: SCHEMA });
      } else {
        expect(body.output_config).toEqual({ format: { type: "json_schema", schema: SCHEMA } });
      }
    });
  }

  test("json_object mode", async () => {
    h.up.enqueue({ text: "{}" }, { text: "{}" }, { text: "{}" }, { text: "{}" });
    const body = (model: string) => ({ model, messages: [{ role: "user" as const, content: "json" }], response_format: { type: "json_object" as const } });
    await h.openai.chat.completions.create(body(MODEL["openai-chat"]));
    expect(h.lastRequest().body.response_format).toEqual({ type: "json_object" });
    await h.openai.chat.completions.create(body(MODEL["openai-responses"]));
    expect(h.lastRequest().body.text).toEqual({ format: { type: "json_object" } });
    await h.openai.chat.completions.create(body(MODEL["anthropic-messages"]));
    expect(h.lastRequest().body.output_config).toEqual({ format: { type: "json_schema", schema: { type: "object", additionalProperties: true } } });
    await h.openai.chat.completions.create(body(MODEL["azure-openai"]));
    expect(h.lastRequest().body.response_format).toEqual({ type: "json_object" });
    h.up.enqueue({ text: "{}" });
    await h.openai.chat.completions.create(body(MODEL.gemini));
    expect(h.lastRequest().body.generationConfig).toEqual({ responseMimeType: "application/json" });
  });
});
