// The request side of passthrough: a top-level field the gateway does not know reaches an upstream
// of the client's own format as it was sent, JSON and stream; a translated pair gets only what the
// IR carries. OpenRouter's own fields reach no upstream. Known fields still go through the IR.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { type Harness, type Inbound, MODEL, minimalBody, post, startHarness, TRANSLATED_PAIRS, UPSTREAM_MODEL, type UpstreamKind } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

/** Each client with an upstream API that speaks its format (Azure OpenAI speaks Chat). */
const SAME_FORMAT: Array<[Inbound, UpstreamKind]> = [
  ["chat", "openai-chat"],
  ["responses", "openai-responses"],
  ["messages", "anthropic-messages"],
  ["chat", "azure-openai"],
];

/** Fields no release of the gateway knows: vLLM's own, and a provider's newer one, nested values included. */
const UNKNOWN = {
  chat_template_kwargs: { enable_thinking: false, nested: [1, { deep: null }] },
  guided_json: { type: "object", properties: { a: { type: "string" } } },
  brand_new_flag: true,
};

/** OpenRouter's own request fields, each valid for the inbound schema. */
const OPENROUTER_ONLY = {
  models: [MODEL["openai-chat"]],
  provider: { allow_fallbacks: true },
  route: "fallback",
  plugins: [{ id: "response-healing", enabled: false }],
  transforms: ["middle-out"],
  usage: { include: true },
  session_id: "s-1",
  trace: { trace_id: "t-1" },
  stop_server_tools_when: [],
  debug: { echo_upstream_body: false },
};

async function sent(inbound: Inbound, model: string, stream: boolean, extra: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await post(h, inbound, minimalBody(inbound, model, { ...extra, stream }));
  expect(res.status).toBe(200);
  await res.text();
  expect(h.up.requests.length).toBe(1);
  return h.lastRequest().body as Record<string, unknown>;
}

const pick = (body: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.filter((k) => k in body).map((k) => [k, body[k]]));

for (const [inbound, upstream] of SAME_FORMAT) {
  describe(`${inbound} client, ${upstream} upstream`, () => {
    for (const stream of [false, true]) {
      test(`${stream ? "stream" : "JSON"}: unknown fields arrive unchanged; the gateway's own fields are still its own`, async () => {
        const body = await sent(inbound, MODEL[upstream], stream, { ...UNKNOWN, model: MODEL[upstream] });
        expect(pick(body, Object.keys(UNKNOWN))).toEqual(UNKNOWN);
        // `model` is known: the upstream gets its own model id, not the catalog id the client named
        expect(body.model).toBe(UPSTREAM_MODEL[upstream]);
        expect(Boolean(body.stream)).toBe(stream);
      });
    }

    test("OpenRouter's own fields reach no upstream, known or not", async () => {
      const body = await sent(inbound, MODEL[upstream], false, { ...OPENROUTER_ONLY, brand_new_flag: 1 });
      expect(pick(body, Object.keys(OPENROUTER_ONLY))).toEqual({});
      expect(body.brand_new_flag).toBe(1);
    });
  });
}

describe("a translated pair gets only what the IR carries", () => {
  for (const [inbound, upstream] of TRANSLATED_PAIRS) {
    for (const stream of [false, true]) {
      test(`${inbound} client, ${upstream} upstream, ${stream ? "stream" : "JSON"}`, async () => {
        const body = await sent(inbound, MODEL[upstream], stream, UNKNOWN);
        expect(pick(body, Object.keys(UNKNOWN))).toEqual({});
      });
    }
  }
});

describe("Claude on Vertex AI speaks the Messages format: a Messages client's unknown fields reach it", () => {
  for (const stream of [false, true]) {
    test(stream ? "stream" : "JSON", async () => {
      const body = await sent("messages", MODEL["vertex-claude"], stream, UNKNOWN);
      expect(pick(body, Object.keys(UNKNOWN))).toEqual(UNKNOWN);
      // the model is in the URL; the API version in the body
      expect([body.model, body.anthropic_version, Boolean(body.stream)]).toEqual([undefined, "vertex-2023-10-16", stream]);
    });
  }

  test("a Gemini upstream gets none of them from any client", async () => {
    for (const inbound of ["chat", "responses", "messages"] as const) {
      h.up.reset();
      const body = await sent(inbound, MODEL.gemini, false, UNKNOWN);
      expect(pick(body, Object.keys(UNKNOWN))).toEqual({});
    }
  });
});
