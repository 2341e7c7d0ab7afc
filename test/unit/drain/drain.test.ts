// createDrain (src/drain.ts) on a fake server and a fake clock: what counts as traffic during a
// drain, and when the quiet spell ends it.
import { expect, test } from "bun:test";
import { createDrain } from "../../../src/drain";

/** A clock that moves only when told, a server whose requests in flight the test sets. */
function harness() {
  let now = 0;
  const server = { pendingRequests: 0 };
  const drain = createDrain(() => now);
  return { drain, server, advance: (ms: number) => (now += ms), at: () => now };
}

const request = (path: string) => new Request(`http://gateway.internal:8080${path}`);

test("before a drain nothing is counted or changed; during one, a request that is not a probe is told to close its connection", () => {
  const { drain } = harness();
  const set = { headers: {} as Record<string, unknown> };
  drain.onRequest(request("/api/v1/models"), set);
  expect(set.headers).toEqual({});
  expect(drain.draining()).toBe(false);
  drain.begin();
  expect(drain.draining()).toBe(true);
  for (const probe of ["/health", "/ready", "/ready?verbose=1"]) {
    drain.onRequest(request(probe), set);
    expect(set.headers).toEqual({});
  }
  drain.onRequest(request("/api/v1/chat/completions?x=/health"), set);
  expect(set.headers).toEqual({ connection: "close" });
});

test("the quiet spell starts over at every arrival and while a request is in flight; probes do not count", async () => {
  const { drain, server, advance, at } = harness();
  drain.begin();
  const ended = drain.quiet(server, 1_000, 60_000);
  let result: string | undefined;
  void ended.then((r) => (result = r));
  const tick = async (ms: number) => {
    advance(ms);
    // the loop polls on real timers: let it look once
    await Bun.sleep(150);
  };
  await tick(600);
  drain.onRequest(request("/v1/x"), { headers: {} });
  await tick(600);
  expect(result).toBeUndefined();
  server.pendingRequests = 1;
  await tick(5_000);
  expect(result).toBeUndefined();
  server.pendingRequests = 0;
  await tick(600);
  drain.onRequest(request("/ready"), { headers: {} });
  await tick(500);
  expect(result).toBe("quiet");
  expect(at()).toBe(7_300);
});

test("the deadline ends the wait whatever still arrives", async () => {
  const { drain, server, advance } = harness();
  drain.begin();
  server.pendingRequests = 3;
  const ended = drain.quiet(server, 1_000, 2_000);
  advance(2_000);
  expect(await ended).toBe("deadline");
});
