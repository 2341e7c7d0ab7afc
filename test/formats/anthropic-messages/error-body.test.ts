import { expect, test } from "bun:test";
import { anthropicErrorBody, anthropicInbound } from "../../../src/formats/anthropic-messages";

test("status -> Anthropic error type", () => {
  const types = [400, 401, 402, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504, 529].map((s) => anthropicErrorBody(s, "m").error.type);
  expect(types).toStrictEqual([
    "invalid_request_error",
    "authentication_error",
    "billing_error",
    "permission_error",
    "not_found_error",
    "timeout_error",
    "invalid_request_error",
    "request_too_large",
    "invalid_request_error",
    "rate_limit_error",
    "api_error",
    "api_error",
    "overloaded_error",
    "api_error",
    "overloaded_error",
  ]);
  expect(anthropicErrorBody(429, "slow down")).toStrictEqual({
    type: "error",
    error: { type: "rate_limit_error", message: "slow down" },
    request_id: null,
  });
  expect(anthropicErrorBody(400, "x", "billing_error").error.type).toBe("billing_error");
});

test("a cause named by error_code goes to error.details; other metadata stays out of Anthropic's body", () => {
  const details = { error_code: "thread_unsupported_request" };
  expect(anthropicInbound.errorBody(400, "no threads", details)).toStrictEqual({
    type: "error",
    error: { type: "invalid_request_error", message: "no threads", details },
    request_id: null,
  });
  expect(anthropicInbound.errorBody(400, "bad", { field: "model" })).toStrictEqual({
    type: "error",
    error: { type: "invalid_request_error", message: "bad" },
    request_id: null,
  });
});
