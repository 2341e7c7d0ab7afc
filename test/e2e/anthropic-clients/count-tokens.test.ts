// POST /api/v1/messages/count_tokens through @anthropic-ai/sdk (client.messages.countTokens) and
// plain fetch: the gateway's tokenizer count of system, messages, tools and images, with /messages'
// validation, auth and errors in Anthropic's shape.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import { countTokens } from "gpt-tokenizer";
import { TOKENS_PER_IMAGE } from "../../../src/billing/estimate";
import { type Harness, MODEL, startHarness } from "../inference/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** A 1x1 PNG. */
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const SYSTEM = "You are a careful assistant who describes pictures.";
const QUESTION = "What is in this picture, and what is the weather where it was taken?";
const TOOL = {
  name: "get_weather",
  description: "Current weather in a city",
  input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] },
};

const countPath = "/api/v1/messages/count_tokens";
const postCount = (headers: Record<string, string>, body: unknown) =>
  fetch(h.gw.url + countPath, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

describe("client.messages.countTokens", () => {
  test("counts system, text and tools by the tokenizer and an image at the flat rate", async () => {
    const counted = await h.anthropic.messages.countTokens({
      model: MODEL["openai-chat"],
      system: SYSTEM,
      tools: [TOOL],
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: QUESTION },
            { type: "image", source: { type: "base64", media_type: "image/png", data: PIXEL } },
          ],
        },
      ],
    });
    const toolText = JSON.stringify({ name: TOOL.name, description: TOOL.description, parameters: TOOL.input_schema });
    expect(counted).toEqual({ input_tokens: countTokens([SYSTEM, QUESTION, toolText].join("\n")) + TOKENS_PER_IMAGE });
    // nothing goes upstream
    expect(h.up.requests.length).toBe(0);
  });

  test("any model of the catalog, whatever its upstream format; max_tokens is not needed", async () => {
    const messages = [{ role: "user" as const, content: QUESTION }];
    const counts = await Promise.all(
      ["openai-chat", "openai-responses", "anthropic-messages"].map((u) =>
        h.anthropic.messages.countTokens({ model: MODEL[u as keyof typeof MODEL], messages }),
      ),
    );
    expect(counts).toEqual([0, 1, 2].map(() => ({ input_tokens: countTokens(QUESTION) })));
  });

  test("a body /messages would refuse is a 400 in Anthropic's shape naming the field", async () => {
    const err = await h.anthropic.messages.countTokens({ model: 42 as never, messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as InstanceType<typeof Anthropic.BadRequestError>).error).toEqual({
      type: "error",
      error: { type: "invalid_request_error", message: "Invalid field 'model': expected a string, got 42" },
      request_id: null,
    });
    // the same answer /messages gives
    const bad = { model: MODEL["openai-chat"], messages: [{ role: "wizard", content: "hi" }] };
    const answers = [await postCount({ "x-api-key": h.key }, bad), await h.gw.api("/api/v1/messages", { method: "POST", key: h.key, json: bad })];
    expect(answers.map((r) => r.status)).toEqual([400, 400]);
    const [counted, messages] = await Promise.all(answers.map((r) => r.json()));
    expect(counted).toEqual(messages);
    expect((counted as any).error.message).toStartWith("Invalid field 'messages[0].role'");
  });

  test("an unknown model is the 404 /messages gives", async () => {
    const body = { model: "nobody/nothing", max_tokens: 10, messages: [{ role: "user" as const, content: "hi" }] };
    const err = await h.anthropic.messages.countTokens(body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.NotFoundError);
    const expected = {
      type: "error",
      error: {
        type: "not_found_error",
        message:
          "Model not found: nobody/nothing. Models are declared under models: in gateway.yaml, or come from the default catalog once their provider's API key is set (for example OPENAI_API_KEY); GET /api/v1/models lists the models that can serve",
      },
      request_id: null,
    };
    expect((err as InstanceType<typeof Anthropic.NotFoundError>).error).toEqual(expected);
    for (const res of [await postCount({ "x-api-key": h.key }, body), await h.gw.api("/api/v1/messages", { method: "POST", key: h.key, json: body })]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(expected);
    }
  });
});

describe("auth as on /messages", () => {
  const body = { model: MODEL["openai-chat"], messages: [{ role: "user", content: "hello" }] };

  test("an inference key as x-api-key or bearer token", async () => {
    const headers: Array<Record<string, string>> = [{ "x-api-key": h.key }, { authorization: `Bearer ${h.key}` }];
    for (const header of headers) {
      const res = await postCount(header, body);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ input_tokens: countTokens("hello") });
    }
  });

  test("no key is 401, a management key 403, both in Anthropic's shape", async () => {
    const none = await postCount({}, body);
    expect(none.status).toBe(401);
    expect(((await none.json()) as any).error.type).toBe("authentication_error");
    const management = await postCount({ "x-api-key": h.gw.adminKey }, body);
    expect(management.status).toBe(403);
    expect(((await management.json()) as any).error.type).toBe("permission_error");
  });
});
