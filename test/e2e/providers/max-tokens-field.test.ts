import { afterAll, beforeAll, expect, test } from "bun:test";
import { type GatewayAndUpstream, startGatewayAndUpstream } from "../../support/gateway-and-upstream";

let h: GatewayAndUpstream;

beforeAll(async () => {
  h = await startGatewayAndUpstream({
    yaml: (url) =>
      `providers:\n  - { slug: oai, api: openai-chat, base_url: "${url}", api_key: k }\nmodels:\n  - id: openai/o-model\n    endpoints: [{ provider: oai, model: o-model }]\n`,
  });
  // OpenAI's reasoning models answer max_tokens with this 400
  h.up.setHandler((req) =>
    req.body.max_tokens !== undefined
      ? {
          status: 400,
          errorBody: {
            error: {
              message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
              type: "invalid_request_error",
              param: "max_tokens",
              code: "unsupported_parameter",
            },
          },
        }
      : { text: `cap ${req.body.max_completion_tokens}`, usage: { input: 3, output: 2 } },
  );
});
afterAll(() => h.close());

const ask = () =>
  fetch(`${h.gw.url}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${h.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "openai/o-model", max_tokens: 77, messages: [{ role: "user", content: "hi" }] }),
  });

test("an endpoint that refuses max_tokens by name gets max_completion_tokens, and is remembered", async () => {
  const first = await ask();
  expect(first.status).toBe(200);
  expect(((await first.json()) as any).choices[0].message.content).toBe("cap 77");
  expect(h.up.requests.map((r) => [r.body.max_tokens, r.body.max_completion_tokens])).toEqual([
    [77, undefined],
    [undefined, 77],
  ]);

  h.up.requests.length = 0;
  const second = await ask();
  expect(((await second.json()) as any).choices[0].message.content).toBe("cap 77");
  expect(h.up.requests.map((r) => [r.body.max_tokens, r.body.max_completion_tokens])).toEqual([[undefined, 77]]);
});

test("other 400s are returned as they were", async () => {
  h.up.enqueue({ status: 400, errorBody: { error: { message: "messages: too long", type: "invalid_request_error" } } });
  const res = await ask();
  expect(res.status).toBe(400);
  expect(((await res.json()) as any).error.message).toContain("messages: too long");
});
