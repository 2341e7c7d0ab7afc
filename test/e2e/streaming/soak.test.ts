import { heapStats } from "bun:jsc";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type GatewayAndUpstream, startGatewayAndUpstream } from "../../support/gateway-and-upstream";

let h: GatewayAndUpstream;

beforeAll(async () => {
  h = await startGatewayAndUpstream({
    yaml: (url) =>
      `providers:\n  - { slug: m, api: anthropic-messages, base_url: "${url}", api_key: k }\nmodels:\n  - id: t/soak\n    endpoints: [{ provider: m, model: soak, pricing: { prompt: "0.000001", completion: "0.000002" } }]\n`,
    keyBody: { limit: 1000 },
  });
  h.up.setHandler(() => ({ text: ["Hello", " from", " the", " soak"], usage: { input: 12, output: 4 } }));
});
afterAll(() => h.close());

async function burst(n: number, offset: number) {
  const concurrency = 16;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = offset + next++;
        const res = await fetch(`${h.gw.url}/api/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${h.key}`, "content-type": "application/json" },
          // a few hundred sessions, as a team has (the map's own bound is unit-tested)
          body: JSON.stringify({
            model: "t/soak",
            session_id: `s-${i % 300}`,
            stream: i % 2 === 0,
            max_tokens: 16,
            messages: [{ role: "user", content: `hi ${i}` }],
          }),
        });
        await res.text();
        if (res.status !== 200) throw new Error(`status ${res.status}`);
      }
    }),
  );
}

function liveHeapMb(): number {
  // the mock records every request it receives; that is the test double's memory, not ours
  h.up.requests.length = 0;
  Bun.gc(true);
  return heapStats().heapSize / 1e6;
}

test("memory stays flat over a long run of requests (bounded maps, no buffers kept after streams)", async () => {
  // warm-up: JIT tiers, statement caches and connection pools reach their working size
  // (measured here: the heap grows for the first ~4000 requests, then stays within ±0.3 MB)
  await burst(4500, 0);
  const samples: number[] = [];
  for (let round = 0; round < 3; round++) {
    await burst(2000, 4500 + round * 2000);
    samples.push(liveHeapMb());
  }
  // 4000 requests between the first and last sample: a leak of 1 KB a request would show as
  // 4 MB; GC noise here stays under 2 MB
  expect(samples[2]! - samples[0]!).toBeLessThan(2.5);
  expect(h.gw.ctx.router.sessions.size).toBe(300);
}, 90_000);
