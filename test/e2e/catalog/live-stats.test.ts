import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway, tempDir } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { ListEndpointsResponse, violations } from "./contract-schemas";

// Two providers for one model: `slow` answers after 150 ms, `quick` after 30 ms.
const yaml = (slow: string, quick: string) => `
catalog: { default: false }
providers:
  - { slug: slow, api: openai-chat, base_url: "${slow}", api_key: k1 }
  - { slug: quick, api: openai-chat, base_url: "${quick}", api_key: k2 }
models:
  - id: acme/m
    endpoints:
      - { provider: slow, model: m-slow, pricing: { prompt: "0.000001", completion: "0.000001" } }
      - { provider: quick, model: m-quick, pricing: { prompt: "0.000002", completion: "0.000002" } }
routing: { circuit_failures: 100 }
`;

let slow: MockUpstream;
let quick: MockUpstream;
let dir: string;

beforeAll(async () => {
  [slow, quick] = await Promise.all([startMockUpstream(), startMockUpstream()]);
  slow.setHandler(() => ({ delayMs: 150, text: "slow", usage: { input: 5, output: 30 } }));
  quick.setHandler(() => ({ delayMs: 30, text: "quick", usage: { input: 5, output: 30 } }));
  dir = tempDir();
});
afterAll(async () => {
  await Promise.all([slow.stop(), quick.stop()]);
});

async function endpoints(gw: TestGateway): Promise<Record<string, any>> {
  const body = (await (await gw.api("/api/v1/models/acme/m/endpoints", { key: null })).json()) as any;
  expect(violations(ListEndpointsResponse, body)).toEqual([]);
  return Object.fromEntries(body.data.endpoints.map((e: any) => [e.provider_name, e]));
}

const chat = (gw: TestGateway, key: string, provider: Record<string, unknown>) =>
  gw.api("/api/v1/chat/completions", { method: "POST", key, json: { model: "acme/m", messages: [{ role: "user", content: "hi" }], provider } });

describe("live endpoint figures from this gateway's traffic", () => {
  test("latency, throughput and uptime per endpoint; sort reads them; rebuilt after a restart", async () => {
    const gw = await startTestGateway({ yaml: yaml(slow.url, quick.url), dir });
    let before: Record<string, any>;
    try {
      const { key } = await createInferenceKey(gw);
      for (let i = 0; i < 3; i++) expect((await chat(gw, key, { only: ["slow"] })).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await chat(gw, key, { only: ["quick"] })).status).toBe(200);
      // two failures on quick: 503 with no fallback allowed
      quick.enqueue({ status: 503 }, { status: 503 });
      for (let i = 0; i < 2; i++) expect((await chat(gw, key, { only: ["quick"] })).status).toBe(502);

      before = await endpoints(gw);
      const s = before.slow!;
      const q = before.quick!;
      expect([s.uptime_last_5m, s.uptime_last_30m, s.uptime_last_1d]).toEqual([100, 100, 100]);
      expect([q.uptime_last_5m, q.uptime_last_30m, q.uptime_last_1d]).toEqual([60, 60, 60]);
      // a bucket is within 12% of the value; the mock's delay is a floor
      expect(s.latency_last_30m.p50).toBeGreaterThan(150 * 0.88);
      expect(s.latency_last_30m.p50).toBeLessThan(400);
      expect(q.latency_last_30m.p50).toBeGreaterThan(30 * 0.88);
      expect(q.latency_last_30m.p50).toBeLessThan(s.latency_last_30m.p50);
      // 30 output tokens over the whole (non-streamed) request
      expect(s.throughput_last_30m.p50).toBeLessThan(q.throughput_last_30m.p50);
      expect(s.throughput_last_30m.p99).toBeLessThanOrEqual((30 / 0.15) * 1.12);

      // routing sorts by the same figures
      slow.reset();
      quick.reset();
      quick.setHandler(() => ({ delayMs: 30, text: "quick", usage: { input: 5, output: 30 } }));
      slow.setHandler(() => ({ delayMs: 150, text: "slow", usage: { input: 5, output: 30 } }));
      const sorted = (await (await chat(gw, key, { sort: "latency" })).json()) as any;
      expect(sorted.choices[0].message.content).toBe("quick");
      const cheap = (await (await chat(gw, key, { sort: "price" })).json()) as any;
      expect(cheap.choices[0].message.content).toBe("slow");
      before = await endpoints(gw);
    } finally {
      await gw.close();
    }

    // same database, new process state: the figures come back from the generation records
    const again = await startTestGateway({ yaml: yaml(slow.url, quick.url), dir });
    try {
      const after = await endpoints(again);
      for (const name of ["slow", "quick"]) {
        for (const field of ["uptime_last_5m", "uptime_last_30m", "uptime_last_1d"]) {
          expect([name, field, after[name]![field]]).toEqual([name, field, before[name]![field]]);
        }
        // the record keeps durations to the millisecond but not the served attempt's exact start,
        // so a replayed value may land in the neighbouring bucket (buckets are 25% wide)
        for (const field of ["latency_last_30m", "throughput_last_30m"]) {
          for (const p of ["p50", "p75", "p90", "p99"]) {
            const ratio = after[name]![field][p] / before[name]![field][p];
            expect([name, field, p, ratio >= 1 / 1.26 && ratio <= 1.26]).toEqual([name, field, p, true]);
          }
        }
      }
    } finally {
      await again.close();
    }
  });
});
