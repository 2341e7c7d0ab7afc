import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { GatewayError } from "../../../src/errors";
import { anthropicInbound } from "../../../src/formats/anthropic-messages";
import { openaiChatInbound } from "../../../src/formats/openai-chat";
import { rendersErrorsWith } from "../../../src/http/error-format";
import { jsonError, renderError } from "../../../src/http/error-handler";
import type { Logger } from "../../../src/logger";

/** Errors take the body of the codec a route declares, whatever its path; other routes keep the standard body. */

const logger = { error: () => {} } as unknown as Logger;
const fail = (): never => {
  throw new GatewayError(404, "no such model", { model: "x" });
};
const body = t.Object({ n: t.Number() });

const app = new Elysia()
  .onError(({ request, code, error }) => renderError(request, code, error, logger))
  .post("/v1/anything", fail, { body, transform: rendersErrorsWith(anthropicInbound, "/v1/anything") })
  .post("/v1/messages", fail, { body, transform: rendersErrorsWith(openaiChatInbound, "/v1/messages") })
  .post("/v1/plain", fail, { body });

const post = async (path: string, payload: unknown) => {
  const res = await app.handle(
    new Request(`http://gateway.test${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) }),
  );
  return { status: res.status, body: await res.json() };
};

describe("the route's codec renders its errors", () => {
  test("an Anthropic route at any path: thrown and validation errors in Anthropic's shape", async () => {
    expect(await post("/v1/anything", { n: 1 })).toEqual({
      status: 404,
      body: { type: "error", error: { type: "not_found_error", message: "no such model" }, request_id: null },
    });
    const invalid = await post("/v1/anything", { n: "x" });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  });

  test("a Chat route named /messages keeps the standard body", async () => {
    expect(await post("/v1/messages", { n: 1 })).toEqual({ status: 404, body: { error: { code: 404, message: "no such model", metadata: { model: "x" } } } });
  });

  test("a route without a codec: the standard body", async () => {
    expect((await post("/v1/plain", { n: "x" })).body).toMatchObject({ error: { code: 400 } });
  });
});

describe("before any hook of the route runs", () => {
  const early = async (path: string) => await jsonError(new Request(`http://gateway.test${path}`, { method: "POST" }), 413, "Request body too large").json();

  test("an error about the request (a body over the limit) finds the route's codec by its path, a trailing slash included", async () => {
    const anthropic = { type: "error", error: { type: "request_too_large", message: "Request body too large" }, request_id: null };
    expect(await early("/v1/anything")).toEqual(anthropic);
    expect(await early("/v1/anything/")).toEqual(anthropic);
    expect(await early("/v1/anything?beta=true")).toEqual(anthropic);
  });

  test("another path, even one that starts the same: the standard body", async () => {
    expect(await early("/v1/anything/else")).toEqual({ error: { code: 413, message: "Request body too large" } });
  });
});
