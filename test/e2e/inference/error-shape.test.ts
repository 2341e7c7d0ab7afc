import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";

let gw: TestGateway;
let key: string;

beforeAll(async () => {
  gw = await startTestGateway({});
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
