import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { classifyFailure, httpFailure, transportFailure, type UpstreamFailure } from "../../../src/gateway/upstream-failure";

const failure = (kind: UpstreamFailure["kind"], status: number): UpstreamFailure => ({
  ok: false,
  kind,
  status,
  message: `${kind} ${status}`,
  timedOut: false,
});

describe("classifyFailure", () => {
  // [kind, status, BYOK, retryable, blame endpoint]
  const table: Array<[UpstreamFailure["kind"], number, boolean, boolean, boolean]> = [
    ["transport", 0, false, true, true],
    ["transport", 0, true, true, true],
    // the request itself is wrong: another provider would refuse it too, and this one answered
    ["http", 400, false, false, false],
    ["http", 413, false, false, false],
    ["http", 422, false, false, false],
    ["http", 400, true, false, false],
    // the gateway's own credential refused: the endpoint is unusable for everyone
    ["http", 401, false, true, true],
    ["http", 403, false, true, true],
    // one workspace's BYOK key refused: try another, but the endpoint is healthy
    ["http", 401, true, true, false],
    ["http", 403, true, true, false],
    ["http", 402, false, true, true],
    ["http", 404, false, true, true],
    ["http", 408, false, true, true],
    ["http", 429, false, true, true],
    ["http", 429, true, true, true],
    ["http", 500, false, true, true],
    ["http", 502, false, true, true],
    ["http", 503, false, true, true],
    ["http", 504, false, true, true],
    ["http", 524, false, true, true],
    // an error event in place of output: only overload, rate limits and timeouts are worth another try
    ["event", 408, false, true, true],
    ["event", 429, false, true, true],
    ["event", 500, false, true, true],
    ["event", 529, false, true, true],
    ["event", 400, false, false, false],
    ["event", 401, false, false, false],
    ["event", 403, true, false, false],
    ["event", 404, false, false, false],
  ];
  for (const [kind, status, byok, retryable, blame] of table) {
    test(`${kind} ${status}${byok ? " (BYOK)" : ""}: ${retryable ? "try the next candidate" : "stop"}, ${blame ? "blame" : "do not blame"} the endpoint`, () => {
      const f = failure(kind, status);
      expect(classifyFailure(f, "acme", byok)).toEqual({ failure: f, provider: "acme", retryable, blameEndpoint: blame });
    });
  }

  test("property: an endpoint is blamed only for a failure worth another candidate, and a BYOK 401/403 never blames it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<UpstreamFailure["kind"]>("transport", "http", "event"),
        fc.oneof(fc.constantFrom(400, 401, 403, 408, 413, 422, 429, 500, 503), fc.integer({ min: 0, max: 599 })),
        fc.boolean(),
        (kind, status, byok) => {
          const c = classifyFailure(failure(kind, kind === "transport" ? 0 : status), "p", byok);
          if (c.blameEndpoint) expect(c.retryable).toBe(true);
          if (byok && kind !== "transport" && (status === 401 || status === 403)) expect(c.blameEndpoint).toBe(false);
          if (kind === "http" && [400, 413, 422].includes(status)) expect(c.retryable).toBe(false);
        },
      ),
    );
  });
});

describe("httpFailure", () => {
  const messageOf = (body: unknown) => (body as { error?: { message?: string } } | null)?.error?.message;

  test("an error body: the status, the message the format's parser finds, the parsed body and Retry-After", async () => {
    const res = new Response(JSON.stringify({ error: { message: "slow down" } }), { status: 429, headers: { "retry-after": "7" } });
    expect(await httpFailure(res, messageOf)).toEqual({
      ok: false,
      kind: "http",
      status: 429,
      message: "slow down",
      raw: { error: { message: "slow down" } },
      timedOut: false,
      retryAfter: "7",
    });
  });

  test("retry-after-ms (OpenAI, Azure OpenAI) is read beside Retry-After; a garbled one is no hint", async () => {
    const both = new Response("{}", { status: 429, headers: { "retry-after": "2", "retry-after-ms": "1500" } });
    expect(await httpFailure(both, messageOf)).toMatchObject({ status: 429, retryAfter: "2", retryAfterMs: 1500 });
    const garbled = await httpFailure(new Response("{}", { status: 429, headers: { "retry-after-ms": "soon" } }), messageOf);
    expect("retryAfterMs" in garbled).toBe(false);
  });

  test("a body that is not JSON is kept as text and is the message; an empty one falls back to the status text, then to the status", async () => {
    expect(await httpFailure(new Response("<html>bad gateway</html>", { status: 502 }), messageOf)).toMatchObject({
      status: 502,
      message: "<html>bad gateway</html>",
      raw: "<html>bad gateway</html>",
      retryAfter: undefined,
    });
    expect(await httpFailure(new Response("", { status: 503, statusText: "Service Unavailable" }), messageOf)).toMatchObject({
      message: "Service Unavailable",
      raw: "",
    });
    expect(await httpFailure(new Response("", { status: 500 }), messageOf)).toMatchObject({ message: "HTTP 500" });
  });

  test("a huge error body is cut to 64 KB before it is kept", async () => {
    const f = await httpFailure(new Response("x".repeat(200_000), { status: 500 }), messageOf);
    expect(f.raw).toBe("x".repeat(64 * 1024));
    expect(f.message.length).toBe(64 * 1024);
  });
});

test("transportFailure: status 0, not timed out unless told", () => {
  expect(transportFailure("connection refused")).toEqual({ ok: false, kind: "transport", status: 0, message: "connection refused", timedOut: false });
  expect(transportFailure("no answer", { timedOut: true })).toMatchObject({ timedOut: true, status: 0 });
});
