// The response cache for Chat Completions clients: a miss calls upstream and keeps the answer, the
// same question again is a hit that sends nothing upstream, costs nothing and is recorded.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import OpenAI from "openai";
import type { GatewayAndUpstream } from "../../support/gateway-and-upstream";
import { generation, keyUsage, startCacheGateway } from "./support";

let h: GatewayAndUpstream;
let openai: OpenAI;

beforeAll(async () => {
  h = await startCacheGateway();
  openai = new OpenAI({ baseURL: `${h.gw.url}/api/v1`, apiKey: h.key, maxRetries: 0 });
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

const ask = (content: string, extra: Record<string, unknown> = {}) => ({ model: "t/chat", messages: [{ role: "user" as const, content }], ...extra });

test("a miss then a hit: one upstream call, the same answer, HIT with Age, cost 0, a new generation recorded", async () => {
  h.up.enqueue({ text: "Paris.", usage: { input: 12, output: 3 } });
  const first = await openai.chat.completions.create(ask("capital of France?")).withResponse();
  expect(first.response.headers.get("x-gateway-cache")).toBe("MISS");
  expect(first.data.choices[0]!.message.content).toBe("Paris.");
  const usageAfterMiss = await keyUsage(h);
  const second = await openai.chat.completions.create(ask("capital of France?")).withResponse();
  expect(second.response.headers.get("x-gateway-cache")).toBe("HIT");
  expect(second.response.headers.get("age")).toBe("0");
  expect(h.up.requests.length).toBe(1);
  expect(second.data.choices[0]!.message.content).toBe("Paris.");
  expect(second.data.choices[0]!.finish_reason).toBe("stop");
  expect(second.data.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15, cost: 0 });
  const id = second.response.headers.get("x-generation-id")!;
  expect(id).not.toBe(first.response.headers.get("x-generation-id"));
  expect(second.data.id).toBe(id);
  const record = await generation(h, id);
  expect(record).toMatchObject({
    total_cost: 0,
    tokens_prompt: 12,
    tokens_completion: 3,
    cache_status: "hit",
    response_cache_source_id: first.response.headers.get("x-generation-id"),
    model: "t/chat",
    provider_name: "chat-up",
    provider_responses: [],
  });
  expect(await keyUsage(h)).toBe(usageAfterMiss);
  expect((await generation(h, first.response.headers.get("x-generation-id")!)).cache_status).toBe("miss");
});
