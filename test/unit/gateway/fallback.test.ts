import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { Candidate } from "../../../src/gateway/candidates";
import { attemptWithFallback, observeServed, type UpstreamOperation } from "../../../src/gateway/fallback";
import { createRouterState } from "../../../src/gateway/routing/router-state";
import type { UpstreamFailure } from "../../../src/gateway/upstream-failure";
import { silentTelemetry } from "../../../src/telemetry/telemetry";
import { model } from "../routing/fixtures";

const H = { "x-generation-id": "gen-1" };

function setup(providers: string[], o: { byok?: string[]; failures?: number } = {}) {
  let now = 1_000;
  const clock = () => now;
  const router = createRouterState({ routing: { firstByteTimeoutMs: 1000, circuitFailures: o.failures ?? 2, circuitCooldownMs: 10_000 } } as never, clock);
  const m = model(
    "m/one",
    providers.map((p) => ({ provider: p })),
  );
  const candidates: Candidate[] = m.endpoints.map((e) => ({
    endpoint: e,
    model: m,
    apiKey: `key-${e.provider.slug}`,
    isByok: o.byok?.includes(e.provider.slug) ?? false,
  }));
  return { router, clock, telemetry: silentTelemetry(), candidates, advance: (ms: number) => (now += ms) };
}

const http = (status: number, message = `HTTP ${status}`): UpstreamFailure => ({ ok: false, kind: "http", status, message, timedOut: false });
const served = (value: string) => ({ ok: true as const, status: 200, value });

/** An operation answering per provider from a script, recording the order it was called in. */
function scripted(script: Record<string, UpstreamFailure | string>) {
  const calls: string[] = [];
  const op: UpstreamOperation<string> = async (c) => {
    calls.push(c.endpoint.provider.slug);
    const answer = script[c.endpoint.provider.slug]!;
    return typeof answer === "string" ? served(answer) : answer;
  };
  return { op, calls };
}

describe("attemptWithFallback", () => {
  test("the first candidate that answers serves; the attempts before it are listed with their statuses", async () => {
    const s = setup(["a", "b", "c"]);
    const { op, calls } = scripted({ a: http(503), b: "from b", c: "from c" });
    const out = await attemptWithFallback(s, { candidates: s.candidates, signal: new AbortController().signal, headers: H }, op);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.value).toBe("from b");
    expect(out.candidate.endpoint.provider.slug).toBe("b");
    expect(calls).toEqual(["a", "b"]);
    expect(out.attempts.map((a) => [a.provider, a.status])).toEqual([
      ["a", 503],
      ["b", 200],
    ]);
  });

  test("a request error stops the loop and is returned as the upstream said it; the endpoint is not blamed", async () => {
    const s = setup(["a", "b"], { failures: 1 });
    const { op, calls } = scripted({ a: { ...http(400, "bad tools"), raw: { error: "bad tools" } }, b: "from b" });
    const out = await attemptWithFallback(s, { candidates: s.candidates, signal: new AbortController().signal, headers: H }, op);
    expect(calls).toEqual(["a"]);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect([out.error.status, out.error.message, out.error.headers]).toEqual([400, "Provider a rejected the request: bad tools", H]);
    expect(s.router.circuits.health("a/up")).toBe("healthy");
  });

  test("retryable failures open the circuit after the configured count; the last meaningful one is the error", async () => {
    const s = setup(["a", "b"], { failures: 1 });
    const { op } = scripted({ a: http(500, "internal"), b: http(502, "bad gateway") });
    const out = await attemptWithFallback(s, { candidates: s.candidates, signal: new AbortController().signal, headers: H }, op);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect([out.error.status, out.error.message]).toEqual([502, "Provider b failed: bad gateway"]);
    expect([s.router.circuits.health("a/up"), s.router.circuits.health("b/up")]).toEqual(["open", "open"]);
    expect(s.router.stats.stats("a/up").requestsLast30m).toBe(1);
  });

  test("a BYOK credential rejected with 401 or 403 falls over without blaming the endpoint", async () => {
    for (const status of [401, 403]) {
      const s = setup(["a", "b"], { byok: ["a"], failures: 1 });
      const { op, calls } = scripted({ a: http(status), b: "from b" });
      const out = await attemptWithFallback(s, { candidates: s.candidates, signal: new AbortController().signal, headers: H }, op);
      expect(out.ok).toBe(true);
      expect(calls).toEqual(["a", "b"]);
      expect(s.router.circuits.health("a/up")).toBe("healthy");
    }
  });

  test("the gateway's own key rejected with 401 does blame the endpoint", async () => {
    const s = setup(["a", "b"], { failures: 1 });
    const { op } = scripted({ a: http(401), b: "from b" });
    await attemptWithFallback(s, { candidates: s.candidates, signal: new AbortController().signal, headers: H }, op);
    expect(s.router.circuits.health("a/up")).toBe("open");
  });

  test("a 429's retry-after-ms holds the endpoint back for exactly that long, before Retry-After's whole seconds", async () => {
    const s = setup(["a", "b"], { failures: 100 });
    const { op } = scripted({ a: { ...http(429), retryAfter: "9", retryAfterMs: 1500 }, b: "from b" });
    await attemptWithFallback(s, { candidates: s.candidates, signal: new AbortController().signal, headers: H }, op);
    expect(s.router.circuits.snapshot("a/up")?.retryAfterUntil).toBe(1_000 + 1500);
    expect(s.router.circuits.health("a/up")).toBe("open");
    s.advance(1500);
    expect(s.router.circuits.health("a/up")).not.toBe("open");
  });

  test("a 4xx request error closes a circuit that was failing (the endpoint answered)", async () => {
    const s = setup(["a"], { failures: 3 });
    s.router.circuits.failure("a/up");
    s.router.circuits.failure("a/up");
    const { op } = scripted({ a: http(422) });
    await attemptWithFallback(s, { candidates: s.candidates, signal: new AbortController().signal, headers: H }, op);
    expect(s.router.circuits.snapshot("a/up")).toEqual({ consecutive: 0, openUntil: 0, retryAfterUntil: 0 });
  });

  test("an endpoint past its cooldown is tried as the one probe: others see it open until it reports", async () => {
    const s = setup(["a", "b"], { failures: 1 });
    s.router.circuits.failure("a/up");
    s.advance(10_001);
    expect(s.router.circuits.health("a/up")).toBe("probe");
    const seen: string[] = [];
    const op: UpstreamOperation<string> = async (c) => {
      seen.push(`${c.endpoint.provider.slug}:${s.router.circuits.health("a/up")}`);
      return c.endpoint.provider.slug === "a" ? http(500) : served("from b");
    };
    const out = await attemptWithFallback(s, { candidates: s.candidates, signal: new AbortController().signal, headers: H }, op);
    expect(out.ok).toBe(true);
    // while the probe runs, everybody else sees the endpoint open; its failure keeps it open
    expect(seen).toEqual(["a:open", "b:open"]);
    expect(s.router.circuits.health("a/up")).toBe("open");
  });

  test("a client that went away: 499, and the endpoint is not blamed for the aborted call", async () => {
    const s = setup(["a", "b"], { failures: 1 });
    const abort = new AbortController();
    const op: UpstreamOperation<string> = async () => {
      abort.abort();
      return { ok: false, kind: "transport", status: 0, message: "aborted", timedOut: false };
    };
    const out = await attemptWithFallback(s, { candidates: s.candidates, signal: abort.signal, headers: H }, op);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error.status).toBe(499);
    expect(out.attempts.length).toBe(1);
    expect(s.router.circuits.health("a/up")).toBe("healthy");
  });

  test("the serving endpoint is remembered for the session", async () => {
    const s = setup(["a", "b"]);
    const { op } = scripted({ a: http(500), b: "from b" });
    await attemptWithFallback(s, { candidates: s.candidates, signal: new AbortController().signal, headers: H, sessionKey: "ws\u0000s1" }, op);
    expect(s.router.sessions.get("ws\u0000s1")).toBe("b/up");
  });

  test("property: retryable failures fall over to the next candidate; the first success serves; a request error stops", async () => {
    const outcome = fc.constantFrom<UpstreamFailure | "ok">(
      "ok",
      http(500),
      http(429),
      http(400),
      http(422),
      { ok: false, kind: "transport", status: 0, message: "refused", timedOut: false },
      { ok: false, kind: "event", status: 401, message: "no", timedOut: false },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(outcome, { minLength: 1, maxLength: 6 }), async (script) => {
        const providers = script.map((_, i) => `p${i}`);
        const s = setup(providers, { failures: 100 });
        const { op, calls } = scripted(Object.fromEntries(providers.map((p, i) => [p, script[i] === "ok" ? `from ${p}` : (script[i] as UpstreamFailure)])));
        const out = await attemptWithFallback(s, { candidates: s.candidates, signal: new AbortController().signal, headers: H }, op);
        const stop = script.findIndex(
          (x) =>
            x === "ok" ||
            (x.kind === "http" && [400, 413, 422].includes(x.status)) ||
            (x.kind === "event" && !(x.status === 408 || x.status === 429 || x.status >= 500)),
        );
        const expectedCalls = stop === -1 ? script.length : stop + 1;
        expect(calls.length).toBe(expectedCalls);
        expect(out.ok).toBe(stop !== -1 && script[stop] === "ok");
        expect(out.attempts.length).toBe(expectedCalls);
      }),
    );
  });
});

describe("observeServed", () => {
  test("a served answer closes the circuit and records latency to first token and throughput", () => {
    const s = setup(["a"], { failures: 1 });
    s.router.circuits.failure("a/up");
    observeServed(s, "a/up", 1_000, { failed: false, cancelled: false, streamed: true, outputTokens: 50, firstTokenAt: 1_200, endedAt: 1_700 });
    expect(s.router.circuits.health("a/up")).toBe("healthy");
    const stats = s.router.stats.stats("a/up");
    expect(stats.requestsLast30m).toBe(1);
    // 50 tokens in 0.5 s, reported as the midpoint of its histogram bucket
    expect(stats.throughputLast30m?.p50).toBe(96.97);
    expect(stats.latencyLast30m?.p50).toBe(189.4); // 200 ms to the first token, as its bucket midpoint
  });

  test("a stream that failed after it began counts against the endpoint; a cancelled one counts for nothing", () => {
    const s = setup(["a"], { failures: 1 });
    observeServed(s, "a/up", 1_000, { failed: false, cancelled: true, streamed: true, outputTokens: 5, firstTokenAt: 1_100, endedAt: 1_200 });
    expect(s.router.stats.stats("a/up").requestsLast30m).toBe(0);
    observeServed(s, "a/up", 1_000, { failed: true, cancelled: false, streamed: true, outputTokens: 5, firstTokenAt: 1_100, endedAt: 1_200 });
    expect(s.router.circuits.health("a/up")).toBe("open");
  });
});
