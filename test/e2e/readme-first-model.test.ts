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

/** The shell commands of the README's "Calling it" block, one per command (continuation lines joined), comments dropped. */
async function callingItCommands(): Promise<string[]> {
  const readme = await Bun.file(join(import.meta.dir, "../../README.md")).text();
  const block = /## Calling it[\s\S]*?```sh\n([\s\S]*?)\n```/.exec(readme);
  if (!block) throw new Error("the README has no shell block under Calling it");
  return block[1]!
    .replace(/\\\n\s*/g, "")
    .split("\n")
    .filter((line) => line.trim() && !line.startsWith("#"));
}

async function sh(command: string, env: Record<string, string>): Promise<string> {
  const proc = Bun.spawn(["sh", "-c", command], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  if (code !== 0) throw new Error(`${command} exited ${code}: ${await new Response(proc.stderr).text()}`);
  return out;
}

test("the README's curl commands, run as written, create a key and get the first answer", async () => {
  const [createKey, firstCall, ...rest] = (await callingItCommands()).map((c) => c.replaceAll("http://localhost:8080", gw.url));
  expect(rest).toEqual([]);
  const created = JSON.parse(await sh(createKey!, { MGMT_KEY: gw.adminKey }));
  expect(created.key).toMatch(/^sk-gw-v1-/);
  expect(created.data.limit).toBe(10);
  const answer = JSON.parse(await sh(firstCall!, { KEY: created.key }));
  expect(answer.choices[0].message.content).toBe("Hello from mock");
  expect(up.requests.at(-1)!.body.messages).toEqual([{ role: "user", content: "Hello" }]);
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
