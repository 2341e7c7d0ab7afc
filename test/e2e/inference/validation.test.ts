// Request validation on the three inference endpoints: metadata limits, session_id / user
// length, Responses state, key kinds, unknown and missing models, and
// /messages speaking Anthropic's error shape (with the key in x-api-key).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { type Harness, INBOUND_PATH, INBOUNDS, type Inbound, MODEL, minimalBody, post, startHarness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

const model = MODEL["openai-chat"];

/** The error of a response, in the inbound format's shape, checked for that shape. */
async function errorOf(inbound: Inbound, res: Response, status: number): Promise<{ message: string; type?: string }> {
  expect(res.status).toBe(status);
  const body = (await res.json()) as any;
  if (inbound === "messages") {
    expect(body.type).toBe("error");
    expect(Object.keys(body.error).sort()).toEqual(["message", "type"]);
    return body.error;
  }
  expect(body.error.code).toBe(status);
  return body.error;
}

const many = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"]));
const BAD_METADATA: Array<[string, Record<string, string>]> = [
  ["17 pairs", many],
  ["a 65-character key", { ["k".repeat(65)]: "v" }],
  ["a key with [", { "a[b": "v" }],
  ["a 513-character value", { k: "v".repeat(513) }],
];

describe("metadata limits: 400 naming metadata", () => {
  for (const inbound of ["chat", "responses"] as const) {
    for (const [what, metadata] of BAD_METADATA) {
      test(`${inbound}: ${what}`, async () => {
        const e = await errorOf(inbound, await post(h, inbound, minimalBody(inbound, model, { metadata })), 400);
        expect(e.message).toContain("metadata");
      });
    }
    test(`${inbound}: 16 pairs of 64-character keys and 512-character values pass`, async () => {
      const ok = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`${i}`.padEnd(64, "k"), "v".repeat(512)]));
      expect((await post(h, inbound, minimalBody(inbound, model, { metadata: ok }))).status).toBe(200);
    });
  }

  // Anthropic's metadata has only user_id; any other key is refused as Anthropic refuses it
  for (const [what, metadata] of BAD_METADATA) {
    test(`messages: ${what}`, async () => {
      const e = await errorOf("messages", await post(h, "messages", minimalBody("messages", model, { metadata })), 400);
      expect(e.type).toBe("invalid_request_error");
      expect(e.message).toContain("metadata");
    });
  }
  test("messages: metadata.user_id over 256 characters; within it, it travels as the end user", async () => {
    const e = await errorOf("messages", await post(h, "messages", minimalBody("messages", model, { metadata: { user_id: "u".repeat(257) } })), 400);
    expect(e.message).toContain("metadata");
    const ok = await post(h, "messages", minimalBody("messages", MODEL["anthropic-messages"], { metadata: { user_id: "u-1" } }));
    expect(ok.status).toBe(200);
    expect(h.lastRequest().body.metadata).toEqual({ user_id: "u-1" });
    await post(h, "messages", minimalBody("messages", MODEL["openai-chat"], { metadata: { user_id: "u-2" } }));
    expect(h.lastRequest().body.user).toBe("u-2");
  });
});

describe("session_id and user: at most 256 characters", () => {
  for (const inbound of INBOUNDS) {
    for (const field of ["session_id", "user"]) {
      test(`${inbound}: ${field}`, async () => {
        const e = await errorOf(inbound, await post(h, inbound, minimalBody(inbound, model, { [field]: "x".repeat(257) })), 400);
        expect(e.message).toContain(field);
        expect((await post(h, inbound, minimalBody(inbound, model, { [field]: "x".repeat(256) }))).status).toBe(200);
      });
    }
    test(`${inbound}: x-session-id header over 256 characters`, async () => {
      const e = await errorOf(inbound, await post(h, inbound, minimalBody(inbound, model), { "x-session-id": "s".repeat(257) }), 400);
      expect(e.message).toContain("session");
    });
  }
});

describe("Responses state", () => {
  test("store is echoed: true by default, false when the client says so", async () => {
    const kept = await post(h, "responses", minimalBody("responses", model, { store: true }));
    expect(((await kept.json()) as any).store).toBe(true);
    const notKept = await post(h, "responses", minimalBody("responses", model, { store: false }));
    expect(((await notKept.json()) as any).store).toBe(false);
  });
  test("an unknown previous_response_id is refused, naming it", async () => {
    const e = await errorOf("responses", await post(h, "responses", minimalBody("responses", model, { previous_response_id: "x" })), 400);
    expect(e.message).toContain("previous_response_id");
    expect((await post(h, "responses", minimalBody("responses", model, { previous_response_id: null }))).status).toBe(200);
  });
});

describe("keys and models", () => {
  for (const inbound of INBOUNDS) {
    test(`${inbound}: a management key is refused with 403`, async () => {
      const res = await h.gw.api(INBOUND_PATH[inbound], { method: "POST", key: h.gw.adminKey, json: minimalBody(inbound, model) });
      const e = await errorOf(inbound, res, 403);
      if (inbound === "messages") expect(e.type).toBe("permission_error");
      expect(h.up.requests.length).toBe(0);
    });
    test(`${inbound}: no key is 401, an unknown key is 401`, async () => {
      const none = await h.gw.api(INBOUND_PATH[inbound], { method: "POST", key: null, json: minimalBody(inbound, model) });
      const e = await errorOf(inbound, none, 401);
      if (inbound === "messages") expect(e.type).toBe("authentication_error");
      await errorOf(inbound, await h.gw.api(INBOUND_PATH[inbound], { method: "POST", key: "sk-gw-v1-wrong", json: minimalBody(inbound, model) }), 401);
    });
    test(`${inbound}: an unknown model is 404`, async () => {
      const e = await errorOf(inbound, await post(h, inbound, minimalBody(inbound, "acme/unknown-model")), 404);
      expect(e.message).toContain("acme/unknown-model");
      expect(e.message).toBe(
        "Model not found: acme/unknown-model. Models are declared under models: in gateway.yaml, or come from the default catalog once their provider's API key is set (for example OPENAI_API_KEY); GET /api/v1/models lists the models that can serve",
      );
      if (inbound === "messages") expect(e.type).toBe("not_found_error");
    });
    test(`${inbound}: a missing model without a workspace default is 400`, async () => {
      const body = minimalBody(inbound, model);
      delete body.model;
      const e = await errorOf(inbound, await post(h, inbound, body), 400);
      expect(e.message).toContain("model");
      if (inbound === "messages") expect(e.type).toBe("invalid_request_error");
    });
  }
});

describe("/messages: the key in x-api-key, errors in Anthropic's shape", () => {
  const messages = (headers: Record<string, string>, body: unknown) =>
    fetch(h.gw.url + INBOUND_PATH.messages, {
      method: "POST",
      headers: { "content-type": "application/json", "anthropic-version": "2023-06-01", ...headers },
      body: JSON.stringify(body),
    });

  test("x-api-key authenticates", async () => {
    h.up.enqueue({ text: "hello via x-api-key" });
    const res = await messages({ "x-api-key": h.key }, minimalBody("messages", model));
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).content).toEqual([{ type: "text", text: "hello via x-api-key", citations: null }]);
  });

  test("an invalid x-api-key: 401 authentication_error", async () => {
    const res = await messages({ "x-api-key": "sk-gw-v1-nope" }, minimalBody("messages", model));
    expect(await errorOf("messages", res, 401)).toMatchObject({ type: "authentication_error" });
  });

  test("a malformed body: 400 invalid_request_error", async () => {
    const res = await messages({ "x-api-key": h.key }, { model, messages: [{ role: "user", content: [{ type: "text" }] }] });
    expect(await errorOf("messages", res, 400)).toMatchObject({ type: "invalid_request_error" });
  });

  test("the Anthropic SDK sees typed errors", async () => {
    const { default: Anthropic } = await import("@anthropic-ai/sdk");
    const err = await h.anthropic.messages.create({ model: "acme/unknown-model", max_tokens: 10, messages: [{ role: "user", content: "x" }] }).catch((e) => e);
    expect(err).toBeInstanceOf(Anthropic.NotFoundError);
    expect(err.error).toMatchObject({ type: "error", error: { type: "not_found_error" } });
  });
});

describe("one policy for unknown fields, and messages that say what was expected", () => {
  const maxField = { chat: "max_tokens", responses: "max_output_tokens", messages: "max_tokens" } as const;
  const roles = {
    chat: '"system", "developer", "user", "assistant", "tool"',
    responses: '"user", "system", "developer", "assistant"',
    messages: '"user", "assistant", "system"',
  } as const;
  const nullable = (inbound: Inbound) => (inbound === "messages" ? "" : " or null");

  for (const inbound of INBOUNDS) {
    test(`${inbound}: unknown top-level fields, flat or nested, are accepted, and a translated upstream gets none of them`, async () => {
      // a chat client's own format would get them (request-passthrough.test.ts): translated here
      const translated = inbound === "chat" ? MODEL["anthropic-messages"] : model;
      const res = await post(h, inbound, minimalBody(inbound, translated, { foo: { bar: 1 }, some_new_flag: true }));
      expect(res.status).toBe(200);
      const sent = h.up.requests.at(-1)!.body as Record<string, unknown>;
      expect(sent.foo).toBeUndefined();
      expect(sent.some_new_flag).toBeUndefined();
    });

    test(`${inbound}: a string temperature names the field and the expected number`, async () => {
      const e = await errorOf(inbound, await post(h, inbound, minimalBody(inbound, model, { temperature: "hot" })), 400);
      expect(e.message).toBe(`Invalid field 'temperature': expected a number from 0 to 2${nullable(inbound)}, got "hot"`);
    });

    test(`${inbound}: a negative ${maxField[inbound]} says what is allowed`, async () => {
      const e = await errorOf(inbound, await post(h, inbound, minimalBody(inbound, model, { [maxField[inbound]]: -1 })), 400);
      expect(e.message).toBe(`Invalid field '${maxField[inbound]}': expected an integer of at least 1${nullable(inbound)}, got -1`);
    });

    test(`${inbound}: a wrong role names the role field and the roles allowed`, async () => {
      const body = minimalBody(inbound, model);
      const turns = [{ role: "wizard", content: "hi" }];
      const res = await post(h, inbound, inbound === "responses" ? { ...body, input: turns } : { ...body, messages: turns });
      const e = await errorOf(inbound, res, 400);
      const field = inbound === "responses" ? "input[0].role" : "messages[0].role";
      expect(e.message).toBe(`Invalid field '${field}': expected one of ${roles[inbound]}, got "wizard"`);
    });
  }

  test("a closed object still refuses an unknown key, naming that key", async () => {
    const e = await errorOf("messages", await post(h, "messages", minimalBody("messages", model, { metadata: { user_id: "u", foo: { bar: 1 } } })), 400);
    expect(e.message).toBe("Invalid field 'metadata.foo': unknown field");
  });
});
