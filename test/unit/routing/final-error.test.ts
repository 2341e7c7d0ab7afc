import { describe, expect, test } from "bun:test";
import { finalError } from "../../../src/gateway/final-error";
import type { UpstreamFailure } from "../../../src/gateway/upstream-failure";

const H = { "x-generation-id": "gen-1" };
const f = (provider: string, { retryable = true, ...o }: Partial<UpstreamFailure> & { retryable?: boolean }) => ({
  provider,
  retryable,
  blameEndpoint: retryable,
  failure: { ok: false as const, kind: "http" as const, status: 0, message: "boom", timedOut: false, ...o },
});
const view = (e: ReturnType<typeof finalError>) => ({ status: e.status, message: e.message, metadata: e.metadata, headers: e.headers });

describe("finalError", () => {
  test("no attempt at all: 503", () => {
    expect(view(finalError([], H))).toEqual({ status: 503, message: "No provider could serve this request", metadata: undefined, headers: H });
  });

  test("a request error is returned as the upstream said it", () => {
    const raw = { error: { message: "bad tools" } };
    expect(view(finalError([f("a", { status: 400, message: "bad tools", raw, retryable: false })], H))).toEqual({
      status: 400,
      message: "Provider a rejected the request: bad tools",
      metadata: { provider_name: "a", raw },
      headers: H,
    });
  });

  test("all first-byte timeouts: 408", () => {
    const e = finalError([f("a", { timedOut: true }), f("b", { timedOut: true })], H);
    expect(view(e)).toEqual({
      status: 408,
      message: "No provider answered within the first-byte timeout (a, b)",
      metadata: { provider_name: "b" },
      headers: H,
    });
  });

  test("last 429 stays 429 with its Retry-After", () => {
    const e = finalError([f("a", { status: 500, raw: "x" }), f("b", { status: 429, message: "slow down", retryAfter: "7", raw: { e: 1 } })], H);
    expect(view(e)).toEqual({
      status: 429,
      message: "Rate limited by b: slow down",
      metadata: { provider_name: "b", provider_code: "429", raw: { e: 1 } },
      headers: { ...H, "retry-after": "7" },
    });
  });

  test("a 429 that gave only retry-after-ms: Retry-After in whole seconds, rounded up; Retry-After itself wins when both came", () => {
    expect(finalError([f("a", { status: 429, retryAfterMs: 1200 })], H).headers).toEqual({ ...H, "retry-after": "2" });
    expect(finalError([f("a", { status: 429, retryAfterMs: 1200, retryAfter: "1" })], H).headers).toEqual({ ...H, "retry-after": "1" });
  });

  test("a 429 without Retry-After", () => {
    expect(finalError([f("a", { status: 429 })], H).headers).toEqual(H);
  });

  test("a connection failure or timeout after a 429 does not hide it", () => {
    const e = finalError([f("a", { status: 429, retryAfter: "3" }), f("b", { status: 0, message: "connection failed" }), f("c", { timedOut: true })], H);
    expect(e.status).toBe(429);
    expect(e.headers).toEqual({ ...H, "retry-after": "3" });
  });

  test("a 500 after a 429 is a 502", () => {
    const e = finalError([f("a", { status: 429, retryAfter: "3" }), f("b", { status: 503, message: "overloaded", raw: { error: "overloaded" } })], H);
    expect(view(e)).toEqual({
      status: 502,
      message: "Provider b failed: overloaded",
      metadata: { provider_name: "b", raw: { error: "overloaded" } },
      headers: H,
    });
  });

  test("502 names the last provider that answered, with its raw body", () => {
    const e = finalError(
      [f("a", { status: 500, message: "internal", raw: { error: { message: "internal" } } }), f("b", { status: 0, message: "connection failed: reset" })],
      H,
    );
    expect(view(e)).toEqual({
      status: 502,
      message: "Provider a failed: internal",
      metadata: { provider_name: "a", raw: { error: { message: "internal" } } },
      headers: H,
    });
  });

  test("only connection failures: 502 naming the last", () => {
    const e = finalError([f("a", { message: "refused" }), f("b", { message: "reset" })], H);
    expect(view(e)).toEqual({ status: 502, message: "Provider b failed: reset", metadata: { provider_name: "b", raw: null }, headers: H });
  });

  test("timeouts mixed with a 500: 502", () => {
    const e = finalError([f("a", { timedOut: true }), f("b", { status: 500, raw: "oops" })], H);
    expect(e.status).toBe(502);
    expect(e.metadata).toEqual({ provider_name: "b", raw: "oops" });
  });
});
