/** The SSRF table at send time: every form is refused before any connection, and nothing reaches a loopback sentinel. */
import { afterAll, describe, expect, test } from "bun:test";
import type { TCPSocketListener } from "bun";
import { deliverWebhook } from "../../../src/jobs/webhooks/deliver";
import type { OutboundOptions } from "../../../src/outbound/client";
import { refusedUrls, testLookup } from "../../support/ssrf-table";

let connections = 0;
const sentinel: TCPSocketListener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: () => void connections++, data() {} } });
afterAll(() => sentinel.stop(true));

let fetches = 0;
const countingFetch = ((input: string | URL | Request, init?: RequestInit) => {
  fetches++;
  return fetch(input, init);
}) as typeof fetch;

const outbound: OutboundOptions = {
  allowPrivate: false,
  lookup: testLookup,
  lookupTimeoutMs: 1_000,
  totalTimeoutMs: 2_000,
  connectTimeoutMs: 1_000,
  maxResponseBytes: 65_536,
  fetch: countingFetch,
};
const message = (url: string) => ({ id: "evt_1", url, body: '{"type":"test"}' });

describe("outbound URLs refused at send time", () => {
  const table = refusedUrls(sentinel.port);
  test("the table has at least 25 address forms", () => expect(table.length).toBeGreaterThanOrEqual(25));

  for (const [form, url, reason] of table) {
    test(form, async () => {
      expect(await deliverWebhook(message(url), { clock: () => 1_700_000_000_000, secrets: [], outbound })).toEqual({ kind: "rejected", reason });
    });
  }

  test("nothing was fetched and the sentinel saw no connection", () => {
    expect(fetches).toBe(0);
    expect(connections).toBe(0);
  });

  test("a name that does not resolve now is a retry, not a rejection", async () => {
    expect(await deliverWebhook(message("https://nowhere.test/hook"), { clock: () => 0, secrets: [], outbound })).toEqual({
      kind: "retry",
      reason: "host 'nowhere.test' does not resolve",
    });
  });
});
