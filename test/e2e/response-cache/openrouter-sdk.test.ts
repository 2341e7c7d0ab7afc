// OpenRouter's own client: chat.send asking for the cache (X-Gateway-Cache through the request
// options), a streamed hit it reads, and the hit's generation read back through
// generations.getGeneration, whose schema has response_cache_source_id.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { OpenRouter } from "@openrouter/sdk";
import type { GatewayAndUpstream } from "../../support/gateway-and-upstream";
import { startCacheGateway } from "./support";

let h: GatewayAndUpstream;
let client: OpenRouter;

beforeAll(async () => {
  h = await startCacheGateway(`response_cache:\n  enabled: true\n`);
  client = new OpenRouter({ apiKey: h.key, serverURL: `${h.gw.url}/api/v1`, retryConfig: { strategy: "none" } });
});
afterAll(() => h.close());

test("chat.send with X-Gateway-Cache: on keeps, then a streamed hit; the hit's generation names its source", async () => {
  h.up.enqueue({ text: "Cached by OpenRouter's client", usage: { input: 13, output: 5 } });
  const chatRequest = { model: "t/chat", messages: [{ role: "user" as const, content: "sdk question" }] };
  const headers = { "X-Gateway-Cache": "on" };
  const first = (await client.chat.send({ chatRequest }, { headers })) as any;
  expect(first.choices[0].message.content).toBe("Cached by OpenRouter's client");
  const events: any[] = [];
  for await (const chunk of (await client.chat.send({ chatRequest: { ...chatRequest, stream: true } }, { headers })) as AsyncIterable<any>) events.push(chunk);
  expect(events.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("Cached by OpenRouter's client");
  expect(h.up.requests.length).toBe(1);
  const hitId = events[0].id as string;
  const gen = await client.generations.getGeneration({ id: hitId });
  expect(gen.data.totalCost).toBe(0);
  expect(gen.data.tokensPrompt).toBe(13);
  expect(gen.data.tokensCompletion).toBe(5);
  expect(gen.data.streamed).toBe(true);
  expect(gen.data.responseCacheSourceId).toBe(first.id);
  // without the header the default (off) applies: the client's request goes upstream
  await client.chat.send({ chatRequest });
  expect(h.up.requests.length).toBe(2);
});
