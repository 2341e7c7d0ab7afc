// What a request asks of the response cache: X-Gateway-Cache and Cache-Control's max-age.
import { expect, test } from "bun:test";
import { DEFAULT_RESPONSE_CACHE } from "../../../../src/config";
import { GatewayError } from "../../../../src/errors";
import { cacheKey } from "../../../../src/gateway/response-cache/cache-key";
import { cacheDirective } from "../../../../src/gateway/response-cache/directive";

const ON = { ...DEFAULT_RESPONSE_CACHE, enabled: true };
const read = (headers: Record<string, string>, config = ON) => cacheDirective(config, new Headers(headers));

test("disabled: nothing is read, whatever the headers say", () => {
  expect(read({ "x-gateway-cache": "nonsense" }, DEFAULT_RESPONSE_CACHE)).toBeNull();
});

test("the header, in any case, else the default", () => {
  expect(read({})).toEqual({ mode: "bypass" });
  expect(read({}, { ...ON, defaultOn: true })).toEqual({ mode: "lookup", maxAgeSeconds: null });
  expect(read({ "x-gateway-cache": "On" })).toEqual({ mode: "lookup", maxAgeSeconds: null });
  expect(read({ "x-gateway-cache": "OFF" }, { ...ON, defaultOn: true })).toEqual({ mode: "bypass" });
  expect(read({ "x-gateway-cache": "Refresh" })).toEqual({ mode: "refresh" });
});

test("max-age: plain or quoted among other directives; 0 asks for a fresh answer; a malformed one is ignored", () => {
  expect(read({ "x-gateway-cache": "on", "cache-control": "max-age=30" })).toEqual({ mode: "lookup", maxAgeSeconds: 30 });
  expect(read({ "x-gateway-cache": "on", "cache-control": 'no-transform, MAX-AGE="12"' })).toEqual({ mode: "lookup", maxAgeSeconds: 12 });
  expect(read({ "x-gateway-cache": "on", "cache-control": "max-age=0" })).toEqual({ mode: "refresh" });
  expect(read({ "x-gateway-cache": "on", "cache-control": "max-age=-1, max-stale" })).toEqual({ mode: "lookup", maxAgeSeconds: null });
});

test("another value is a 400 naming the header", () => {
  let caught: unknown;
  try {
    read({ "x-gateway-cache": "always" });
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(GatewayError);
  expect((caught as GatewayError).status).toBe(400);
  expect((caught as GatewayError).metadata).toEqual({ field: "x-gateway-cache" });
});

test("the key: object key order does not matter; the workspace and any value do", () => {
  const a = cacheKey("ws-1", { route: "openai-chat", request: { model: "m", temperature: 0.5, messages: [{ role: "user", content: "hi" }] } });
  const b = cacheKey("ws-1", { request: { messages: [{ content: "hi", role: "user" }], temperature: 0.5, model: "m" }, route: "openai-chat" });
  expect(a).toBe(b);
  expect(a).toMatch(/^[0-9a-f]{64}$/);
  expect(cacheKey("ws-2", { route: "openai-chat", request: { model: "m", temperature: 0.5, messages: [{ role: "user", content: "hi" }] } })).not.toBe(a);
  expect(cacheKey("ws-1", { route: "openai-chat", request: { model: "m", temperature: 0.6, messages: [{ role: "user", content: "hi" }] } })).not.toBe(a);
});
