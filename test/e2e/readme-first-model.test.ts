// The README's "first model in two minutes" gateway.yaml, as written there, serves its model:
// a first run that follows the README must not end in a 503.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { createInferenceKey, startTestGateway, type TestGateway } from "../support/gateway";
import { type MockUpstream, startMockUpstream } from "../support/mock-upstream";

let up: MockUpstream;
let gw: TestGateway;
let yaml: string;

beforeAll(async () => {
  const readme = await Bun.file(join(import.meta.dir, "../../README.md")).text();
  const block = /cat > gateway\.yaml <<'YAML'\n([\s\S]*?)\nYAML\n/.exec(readme);
  if (!block) throw new Error("the README has no gateway.yaml heredoc");
  up = await startMockUpstream();
  // the local server of the README (Ollama's address) is the mock here
  yaml = block[1]!.replace("http://127.0.0.1:11434/v1", up.url);
  gw = await startTestGateway({ yaml });
});
afterAll(async () => {
  await gw.close();
  await up.stop();
});

test("the README's first model answers, and /models lists it", async () => {
  expect(yaml).toContain(up.url);
  const { key } = await createInferenceKey(gw, { limit: 10, limit_reset: "monthly" });
  const res = await gw.api("/api/v1/chat/completions", {
    method: "POST",
    key,
    json: { model: "local/llama3.2", messages: [{ role: "user", content: "Hello" }] },
  });
  expect(res.status).toBe(200);
  expect(((await res.json()) as any).choices[0].message.content).toBe("Hello from mock");
  expect(up.requests.at(-1)!.body.model).toBe("llama3.2");
  const listed = ((await (await gw.api("/api/v1/models")).json()) as any).data.map((m: any) => m.id);
  expect(listed).toContain("local/llama3.2");
});

test("the README's model has a price, so the key limit of the next step applies, and a context length: a longer prompt is a 400 naming it", async () => {
  const { key, hash } = await createInferenceKey(gw, { limit: 10, limit_reset: "monthly" });
  up.enqueue({ text: "ok", usage: { input: 1000, output: 500 } });
  const res = await gw.api("/api/v1/chat/completions", {
    method: "POST",
    key,
    json: { model: "local/llama3.2", messages: [{ role: "user", content: "Hello" }] },
  });
  expect(res.status).toBe(200);
  const usage = ((await res.json()) as { usage: { cost: number } }).usage;
  expect(usage.cost).toBeCloseTo(1000 * 0.0000001 + 500 * 0.0000002, 12);
  const keyData = ((await (await gw.api(`/api/v1/keys/${hash}`)).json()) as { data: { usage_monthly: number; limit_remaining: number } }).data;
  expect(keyData.usage_monthly).toBeCloseTo(0.0002, 12);
  expect(keyData.limit_remaining).toBeCloseTo(10 - 0.0002, 9);
  const long = await gw.api("/api/v1/chat/completions", {
    method: "POST",
    key,
    json: { model: "local/llama3.2", messages: [{ role: "user", content: "word ".repeat(140_000) }] },
  });
  expect(long.status).toBe(400);
  const error = ((await long.json()) as { error: { message: string; metadata: { field: string; context_length: number } } }).error;
  expect(error.metadata).toMatchObject({ field: "messages", context_length: 131072 });
  expect(error.message).toContain("context length of 131072 tokens");
});
