import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "../../support/gateway";
import { type GatewayProcess, startGatewayProcess } from "../../support/gateway-process";
import { type LogLines, readLines } from "../../support/log-lines";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { createInferenceKeyOn } from "./keys";

let up: MockUpstream;
let gw: GatewayProcess;
let log: LogLines;
let key: string;
let yamlPath: string;

const provider = () => `providers:\n  - { slug: m, api: openai-chat, base_url: "${up.url}", api_key: k }\n`;
const model = (id: string, upstream: string) =>
  `  - id: ${id}\n    endpoints: [{ provider: m, model: ${upstream}, pricing: { prompt: "0.000001", completion: "0.000002" } }]\n`;

beforeAll(async () => {
  up = await startMockUpstream();
  const dir = tempDir();
  yamlPath = join(dir, "gateway.yaml");
  await Bun.write(yamlPath, `${provider()}models:\n${model("t/old", "old")}`);
  // info: the reload's own log lines are what this test waits for
  gw = await startGatewayProcess({ DATABASE_URL: `file:${join(dir, "g.db")}`, GATEWAY_CONFIG: yamlPath, GATEWAY_DEFAULT_CATALOG: "false", LOG_LEVEL: "info" });
  log = readLines(gw.proc.stderr);
  key = await createInferenceKeyOn(gw);
});
afterAll(async () => {
  await gw.stop();
  await up.stop();
});

const chat = (modelId: string, stream = false) =>
  gw.api("/api/v1/chat/completions", { method: "POST", key, json: { model: modelId, stream, messages: [{ role: "user", content: "hi" }] } });

async function sighup(after: (line: string) => boolean): Promise<string> {
  const seen = log.lines.length;
  gw.proc.kill("SIGHUP");
  return log.waitFor((line) => log.lines.indexOf(line) >= seen && after(line));
}

test("SIGHUP adds a model while a stream is in flight: the stream completes, the new model serves", async () => {
  up.enqueue({ text: ["one ", "two ", "three"], chunkDelayMs: 400, usage: { input: 5, output: 3 } });
  const stream = await chat("t/old", true);
  expect(stream.status).toBe(200);
  const id = stream.headers.get("x-generation-id")!;

  await Bun.write(yamlPath, `${provider()}models:\n${model("t/old", "old")}${model("t/new", "new")}`);
  const reloaded = JSON.parse(await sighup((line) => line.includes("configuration reloaded")));
  expect(reloaded).toMatchObject({ level: "info", msg: "configuration reloaded", file: yamlPath, models: 2, providers: 1 });

  up.enqueue({ text: "from the new model", usage: { input: 4, output: 4 } });
  const fresh = await chat("t/new");
  expect(fresh.status).toBe(200);
  expect(((await fresh.json()) as any).choices[0].message.content).toBe("from the new model");
  expect(up.requests.at(-1)!.body.model).toBe("new");

  const text = await stream.text();
  expect(text).toContain('"content":"three"');
  expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
  expect(gw.proc.exitCode).toBeNull();
  const gen = (await (await gw.api(`/api/v1/generation?id=${id}`)).json()) as any;
  expect(gen.data).toMatchObject({ id, model: "t/old", finish_reason: "stop", tokens_prompt: 5, tokens_completion: 3, cancelled: false });
});

test("a bad file on SIGHUP keeps the running configuration and logs why, with line and column", async () => {
  await Bun.write(yamlPath, `${provider()}models:\n${model("t/old", "old")}  - id: t/broken\n   endpoints: []\n`);
  const failed = JSON.parse(await sighup((line) => line.includes("reload failed")));
  expect(failed).toMatchObject({ level: "error", msg: "configuration reload failed: the running configuration stays", file: yamlPath });
  expect(failed.errors).toEqual(["config error: GATEWAY_CONFIG line 7, column 1: invalid YAML: Sequence item without - indicator"]);

  // several schema mistakes: every one of them in the same log line
  await Bun.write(yamlPath, `${provider()}models:\n${model("t/old", "old")}  - id: nope\n    endpoints: []\nrouting: { circuit_failures: 0 }\n`);
  const invalid = JSON.parse(await sighup((line) => line.includes("reload failed")));
  expect(invalid.errors).toEqual([
    'config error: models[1].id: expected author/slug (got "nope")',
    "config error: models[1].endpoints: expected a list of at least 1 item (got [])",
    "config error: routing.circuit_failures: expected an integer >= 1 (got 0)",
  ]);

  up.enqueue({ text: "still here", usage: { input: 1, output: 1 } });
  const res = await chat("t/old");
  expect(res.status).toBe(200);
  expect(((await res.json()) as any).choices[0].message.content).toBe("still here");
  // the model added by the last good reload is still there too
  expect((await chat("t/new")).status).toBe(200);
  expect(gw.proc.exitCode).toBeNull();
});
