/** sendOutbound / deliverWebhook against real loopback receivers: timeouts, bounded reads, redirects, pinning. */
import { afterAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { deliverWebhook } from "../../../src/jobs/webhooks/deliver";
import { type OutboundOptions, sendOutbound } from "../../../src/outbound/client";
import type { HostLookup } from "../../../src/outbound/host-lookup";
import { selfSignedCertificate } from "../../support/self-signed";
import { PUBLIC_ADDRESS } from "../../support/ssrf-table";

const servers: Server<undefined>[] = [];
const serve = (fetch: (req: Request) => Response | Promise<Response>, tls?: { cert: string; key: string }) => {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch, ...(tls ? { tls } : {}) });
  servers.push(server);
  return server;
};
afterAll(() => servers.forEach((s) => s.stop(true)));

const loopbackLookup: HostLookup = async () => [{ address: "127.0.0.1", family: 4 }];
const local: OutboundOptions = {
  allowPrivate: true,
  lookup: loopbackLookup,
  lookupTimeoutMs: 1_000,
  totalTimeoutMs: 2_000,
  connectTimeoutMs: 1_000,
  maxResponseBytes: 64 * 1024,
};
const post = (url: string) => ({ url, method: "POST" as const, headers: { "content-type": "application/json" }, body: "{}" });
const deliver = (url: string, outbound: OutboundOptions = local) =>
  deliverWebhook({ id: "evt_1", url, body: "{}" }, { clock: () => Date.parse("2026-11-22T12:00:00Z"), secrets: [], outbound });

describe("limits", () => {
  test("a receiver that never answers is cut at the total timeout", async () => {
    const silent = serve(() => new Promise<Response>(() => {}));
    const started = performance.now();
    const result = await sendOutbound(post(`http://127.0.0.1:${silent.port}/hook`), { ...local, totalTimeoutMs: 150 });
    const elapsed = performance.now() - started;
    expect(result).toEqual({ kind: "failed", reason: "timed out", timedOut: true });
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(1_000);
  });

  test("a resolver that never answers is cut at the lookup timeout", async () => {
    const hanging: HostLookup = () => new Promise(() => {});
    expect(await sendOutbound(post("https://slow-dns.test/hook"), { ...local, lookup: hanging, lookupTimeoutMs: 50 })).toEqual({
      kind: "failed",
      reason: "host 'slow-dns.test' does not resolve",
      timedOut: false,
    });
  });

  test("of a 10 MB answer at most 64 KB is read, and the status still decides", async () => {
    let produced = 0;
    const chunk = new Uint8Array(16 * 1024).fill(120);
    const flood = serve(
      () =>
        new Response(
          new ReadableStream({
            pull(controller) {
              if (produced >= 10 * 1024 * 1024) return controller.close();
              produced += chunk.length;
              controller.enqueue(chunk);
            },
          }),
          { status: 200 },
        ),
    );
    const result = await sendOutbound(post(`http://127.0.0.1:${flood.port}/hook`), local);
    expect(result.kind).toBe("response");
    if (result.kind !== "response") return;
    expect(result.status).toBe(200);
    expect(result.body.length).toBe(64 * 1024);
    expect(result.truncated).toBe(true);
    expect(produced).toBeLessThan(10 * 1024 * 1024);
    expect(await deliver(`http://127.0.0.1:${flood.port}/hook`)).toEqual({ kind: "delivered", status: 200 });
  });
});

describe("answers", () => {
  test("410 Gone is `gone`", async () => {
    const gone = serve(() => new Response("no such hook", { status: 410 }));
    expect(await deliver(`http://127.0.0.1:${gone.port}/hook`)).toEqual({ kind: "gone", status: 410 });
  });

  test("a 2xx is delivered; 429 and 503 are retries with Retry-After in seconds (delta or HTTP date)", async () => {
    const ok = serve(() => new Response(null, { status: 204 }));
    const busy = serve(() => new Response("", { status: 429, headers: { "retry-after": "7" } }));
    const down = serve(() => new Response("", { status: 503, headers: { "retry-after": "Sun, 22 Nov 2026 12:01:30 GMT" } }));
    const bad = serve(() => new Response("", { status: 400 }));
    expect(await deliver(`http://127.0.0.1:${ok.port}/`)).toEqual({ kind: "delivered", status: 204 });
    expect(await deliver(`http://127.0.0.1:${busy.port}/`)).toEqual({ kind: "retry", reason: "receiver answered 429", status: 429, retryAfterSeconds: 7 });
    expect(await deliver(`http://127.0.0.1:${down.port}/`)).toEqual({ kind: "retry", reason: "receiver answered 503", status: 503, retryAfterSeconds: 90 });
    expect(await deliver(`http://127.0.0.1:${bad.port}/`)).toEqual({ kind: "retry", reason: "receiver answered 400", status: 400 });
  });

  test("a redirect to loopback is a failed delivery, never followed", async () => {
    let sentinelHits = 0;
    const sentinel = serve(() => {
      sentinelHits++;
      return new Response("ok");
    });
    const redirect = serve(() => new Response(null, { status: 302, headers: { location: `http://127.0.0.1:${sentinel.port}/internal` } }));
    expect(await deliver(`http://127.0.0.1:${redirect.port}/hook`)).toEqual({ kind: "retry", reason: "receiver answered 302", status: 302 });
    expect(sentinelHits).toBe(0);
  });

  test("a refused connection is a retry, never a throw", async () => {
    const closed = serve(() => new Response("x"));
    const port = closed.port;
    closed.stop(true);
    const outcome = await deliver(`http://127.0.0.1:${port}/hook`);
    expect(outcome.kind).toBe("retry");
  });
});

describe("connecting to the checked address", () => {
  test("DNS rebinding: the name is resolved once, and the request goes to that address with the original Host and TLS name", async () => {
    const answers = [PUBLIC_ADDRESS, "127.0.0.1"];
    let lookups = 0;
    const rebinding: HostLookup = async () => [{ address: answers[Math.min(lookups++, 1)]!, family: 4 }];
    const seen: Array<{ url: string; init: any }> = [];
    const recording = (async (url: string, init: any) => {
      seen.push({ url, init });
      return new Response(null, { status: 204 });
    }) as unknown as typeof fetch;
    const outcome = await deliverWebhook(
      { id: "evt_1", url: "https://rebind.test:8443/hook?x=1", body: "{}" },
      { clock: () => 0, secrets: [], outbound: { ...local, allowPrivate: false, lookup: rebinding, fetch: recording } },
    );
    expect(outcome).toEqual({ kind: "delivered", status: 204 });
    expect(lookups).toBe(1);
    expect(seen.length).toBe(1);
    expect(seen[0]!.url).toBe(`https://${PUBLIC_ADDRESS}:8443/hook?x=1`);
    expect(seen[0]!.init.headers.host).toBe("rebind.test:8443");
    expect(seen[0]!.init.tls).toEqual({ serverName: "rebind.test" });
    expect(seen[0]!.init.redirect).toBe("manual");
  });

  test("over TLS the pinned connection still verifies the certificate against the URL's name", async () => {
    const { cert, key } = selfSignedCertificate("hooks.test");
    const receiver = serve((req) => new Response(`host=${req.headers.get("host")}`), { cert, key });
    const pinnedToLoopback = { ...local, trustedCa: cert };
    const good = await sendOutbound(post(`https://hooks.test:${receiver.port}/hook`), pinnedToLoopback);
    expect(good.kind === "response" && [good.status, new TextDecoder().decode(good.body)]).toEqual([200, `host=hooks.test:${receiver.port}`]);
    const wrongName = await sendOutbound(post(`https://other.test:${receiver.port}/hook`), pinnedToLoopback);
    expect(wrongName.kind).toBe("failed");
    expect(wrongName.kind === "failed" && wrongName.reason).toContain("ERR_TLS_CERT_ALTNAME_INVALID");
  });
});

describe("connections", () => {
  test("sends to a plain-HTTP receiver reuse a kept-alive connection to the checked address; HTTPS ones open their own each time (a pooled TLS session was checked for another name)", async () => {
    const plainPorts = new Set<number>();
    const plain = serve((req) => (plainPorts.add(plain.requestIP(req)!.port), new Response("ok")));
    for (let i = 0; i < 5; i++) expect(await sendOutbound(post(`http://127.0.0.1:${plain.port}/hook`), local)).toMatchObject({ kind: "response", status: 200 });
    expect(plainPorts.size).toBe(1);

    const { cert, key } = selfSignedCertificate("receiver.test");
    const tlsPorts = new Set<number>();
    const secure = serve((req) => (tlsPorts.add(secure.requestIP(req)!.port), new Response("ok")), { cert, key });
    for (let i = 0; i < 3; i++)
      expect(await sendOutbound(post(`https://receiver.test:${secure.port}/hook`), { ...local, trustedCa: cert })).toMatchObject({
        kind: "response",
        status: 200,
      });
    expect(tlsPorts.size).toBe(3);
  });
});
