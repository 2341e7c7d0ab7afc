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
