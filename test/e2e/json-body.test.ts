import { afterAll, beforeAll, expect, test } from "bun:test";
import { ADMIN_KEY, createInferenceKey, startTestGateway, type TestGateway } from "../support/gateway";

/** Bodies are JSON whatever content-type says; one that is not JSON is told how to send it (src/http/json-body.ts). */
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

const post = (path: string, body: string | undefined, headers: Record<string, string>) =>
  fetch(`${gw.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${ADMIN_KEY}`, ...headers }, body });

test("JSON sent as curl -d sends it (application/x-www-form-urlencoded), as text/plain or with no content-type is read as JSON", async () => {
  const sent: Array<Record<string, string>> = [{ "content-type": "application/x-www-form-urlencoded" }, { "content-type": "text/plain;charset=UTF-8" }, {}];
  for (const headers of sent) {
    const res = await post("/api/v1/keys", JSON.stringify({ name: "curl key" }), headers);
    expect(res.status).toBe(201);
    expect(((await res.json()) as any).data.name).toBe("curl key");
  }
});

test("a form body is a 415 that says to send JSON with the header", async () => {
  const res = await post("/api/v1/keys", "name=curl+key", { "content-type": "application/x-www-form-urlencoded" });
  expect(res.status).toBe(415);
  expect(await res.json()).toEqual({
    error: {
      code: 415,
      message: "Request body must be JSON, sent with the header content-type: application/json (got content-type: application/x-www-form-urlencoded)",
    },
  });
});

test("/messages answers the same in Anthropic's shape", async () => {
  const { key } = await createInferenceKey(gw);
  const res = await fetch(`${gw.url}/api/v1/messages`, { method: "POST", headers: { "x-api-key": key }, body: "model=x" });
  expect(res.status).toBe(415);
  expect(await res.json()).toEqual({
    type: "error",
    error: { type: "invalid_request_error", message: "Request body must be JSON, sent with the header content-type: application/json (got no content-type)" },
    request_id: null,
  });
});

test("an empty body, and JSON that does not parse under a JSON content-type, are 400s that say which", async () => {
  const empty = await post("/api/v1/keys", undefined, {});
  expect(await empty.json()).toEqual({
    error: { code: 400, message: "Request body is empty: send a JSON object with the header content-type: application/json" },
  });
  const broken = await post("/api/v1/keys", '{"name":', { "content-type": "application/vnd.api+json" });
  expect(await broken.json()).toEqual({ error: { code: 400, message: "Request body is not valid JSON" } });
});
