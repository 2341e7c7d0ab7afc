import { expect, test } from "bun:test";
import { sendOutbound } from "../../../src/outbound/client";
import { probeConnect, recentlyReached } from "../../../src/outbound/connect-probe";
import { freePort } from "../../support/gateway-process";

test("a listening port is open, a closed one refused", async () => {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  try {
    expect(await probeConnect("127.0.0.1", listener.port, 1000)).toBe("open");
  } finally {
    listener.stop(true);
  }
  expect(await probeConnect("127.0.0.1", await freePort(), 1000)).toBe("refused");
});

test("a connection that does not open in time fails the attempt before anything is sent", async () => {
  let fetched = 0;
  const started = performance.now();
  const result = await sendOutbound(
    { url: "http://127.0.0.1:9/hook", method: "POST", headers: {}, body: "{}" },
    {
      allowPrivate: true,
      lookup: async () => [],
      lookupTimeoutMs: 1000,
      connectTimeoutMs: 150,
      totalTimeoutMs: 5000,
      maxResponseBytes: 1024,
      // what a receiver behind a firewall that drops packets looks like to the probe
      probe: async (_address, _port, timeoutMs) => (await Bun.sleep(timeoutMs), "timeout"),
      fetch: (async () => (fetched++, new Response())) as unknown as typeof fetch,
    },
  );
  expect(result).toEqual({ kind: "failed", reason: "connect timed out", timedOut: true });
  expect(fetched).toBe(0);
  expect(performance.now() - started).toBeLessThan(1000);
});

test("recentlyReached: an address that opened is not probed again within the TTL; a refused or forgotten one is", async () => {
  let now = 0;
  const calls: string[] = [];
  const answers = new Map<string, "open" | "refused" | "timeout">([
    ["10.0.0.1", "open"],
    ["10.0.0.2", "refused"],
  ]);
  const probe = async (address: string, port: number) => (calls.push(`${address}:${port}`), answers.get(address) ?? "timeout");
  const cached = recentlyReached(probe, 10_000, () => now);
  expect(await cached.probe("10.0.0.1", 443, 100)).toBe("open");
  now = 9_999;
  expect(await cached.probe("10.0.0.1", 443, 100)).toBe("open");
  // another port is another receiver
  expect(await cached.probe("10.0.0.1", 8443, 100)).toBe("open");
  expect(calls).toEqual(["10.0.0.1:443", "10.0.0.1:8443"]);
  now = 10_000;
  expect(await cached.probe("10.0.0.1", 443, 100)).toBe("open");
  expect(calls.length).toBe(3);
  expect(await cached.probe("10.0.0.2", 443, 100)).toBe("refused");
  expect(await cached.probe("10.0.0.2", 443, 100)).toBe("refused");
  expect(calls.length).toBe(5);
  cached.forget("10.0.0.1", 443);
  answers.set("10.0.0.1", "timeout");
  expect(await cached.probe("10.0.0.1", 443, 100)).toBe("timeout");
  expect(await cached.probe("10.0.0.1", 443, 100)).toBe("timeout");
  expect(calls.length).toBe(7);
});
