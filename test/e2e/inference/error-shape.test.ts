import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";

let gw: TestGateway;
let key: string;

beforeAll(async () => {
  // a 1 MB limit, so that a body over it is cheap to send
  gw = await startTestGateway({ env: { GATEWAY_MAX_BODY_MB: "1" } });
  ({ key } = await createInferenceKey(gw, {}));
});
afterAll(() => gw.close());

const post = (path: string, body: string) =>
  fetch(`${gw.url}/api/v1${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body });

describe("errors in the shape of the route's format, also before the body is read", () => {
  test("JSON that does not parse, sent to /messages: Anthropic's error body", async () => {
    const res = await post("/messages", "{not json");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ type: "error", error: { type: "invalid_request_error", message: "Request body is not valid JSON" }, request_id: null });
  });

  test("the same sent to /chat/completions: the standard body", async () => {
    const res = await post("/chat/completions", "{not json");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 400, message: "Request body is not valid JSON" } });
  });
});

describe("/messages and /messages/count_tokens: Anthropic's shape for errors about the body, before any route hook runs", () => {
  const OVER = "x".repeat(1024 * 1024 + 1);
  const TOO_LARGE = { type: "error", error: { type: "request_too_large", message: "Request body too large: the limit is 1 MB" }, request_id: null };
  /** the same bytes without a content-length: the limit is found while the body is read */
  const chunked = (text: string) => {
    const bytes = new TextEncoder().encode(text);
    let sent = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(sent, sent + 64 * 1024));
        sent += 64 * 1024;
      },
    });
  };

  test("/messages/count_tokens: JSON that does not parse, as on /messages", async () => {
    const res = await post("/messages/count_tokens", "{not json");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ type: "error", error: { type: "invalid_request_error", message: "Request body is not valid JSON" }, request_id: null });
  });

  for (const path of ["/messages", "/messages/count_tokens"]) {
    test(`${path}: a body over the limit, by its content-length and read in chunks`, async () => {
      const declared = await post(path, OVER);
      expect(declared.status).toBe(413);
      expect(await declared.json()).toEqual(TOO_LARGE);
      const streamed = await fetch(`${gw.url}/api/v1${path}`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: chunked(OVER),
      });
      expect(streamed.status).toBe(413);
      expect(await streamed.json()).toEqual(TOO_LARGE);
    });
  }

  test("@anthropic-ai/sdk reads the 413 as ContentTooLargeError of type request_too_large, on both routes", async () => {
    const client = new Anthropic({ apiKey: key, baseURL: `${gw.url}/api`, maxRetries: 0 });
    const request = { model: "acme/any", max_tokens: 10, messages: [{ role: "user" as const, content: OVER }] };
    for (const call of [() => client.messages.create(request), () => client.messages.countTokens({ model: request.model, messages: request.messages })]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.ContentTooLargeError);
      expect([
        (err as InstanceType<typeof Anthropic.APIError>).status,
        (err as InstanceType<typeof Anthropic.APIError>).type,
        (err as InstanceType<typeof Anthropic.APIError>).apiMessage,
      ]).toEqual([413, "request_too_large", "Request body too large: the limit is 1 MB"]);
    }
  });

  test("/chat/completions keeps the standard body for the same", async () => {
    const res = await post("/chat/completions", OVER);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: { code: 413, message: "Request body too large: the limit is 1 MB" } });
  });
});
