// I/O logging: what a workspace keeps of its prompts and completions, and GET /generation/content.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { generationContentsPurgeKind } from "../../../src/jobs/kinds/generation-contents-purge";
import { silentLogger } from "../../../src/logger";
import { ioLoggingKeeps, keyNumber } from "../../../src/observability/capture/io-logging";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";

let up: MockUpstream;
let gw: TestGateway;
let alice: { key: string; hash: string };
let bob: { key: string; hash: string };
let workspaceId: string;

const yaml = (upstream: string) => `
catalog: { default: false }
io_logging: { retention_days: 2 }
providers:
  - { slug: mock, api: openai-chat, base_url: "${upstream}", api_key: k }
  - { slug: anth, api: anthropic-messages, base_url: "${upstream}", api_key: k }
models:
  - id: acme/chat
    endpoints: [{ provider: mock, model: chat-a }]
  - id: acme/claude
    endpoints: [{ provider: anth, model: claude-a }]
  - id: acme/embed
    output_modalities: [embeddings]
    endpoints: [{ provider: mock, model: emb-a }]
`;

const settings = async (body: Record<string, unknown>) =>
  expect((await gw.api(`/api/v1/workspaces/${workspaceId}`, { method: "PATCH", json: body })).status).toBe(200);

async function chat(key: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await gw.api("/api/v1/chat/completions", {
    method: "POST",
    key,
    json: {
      model: "acme/chat",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "hello?" },
      ],
      ...body,
    },
  });
  await res.text();
  expect(res.status).toBe(200);
  return res.headers.get("x-generation-id")!;
}

const content = (id: string, key: string | null = null) => gw.api(`/api/v1/generation/content?id=${encodeURIComponent(id)}`, key === null ? {} : { key });

beforeAll(async () => {
  up = await startMockUpstream();
  gw = await startTestGateway({ yaml: yaml(up.url) });
  alice = await createInferenceKey(gw, { name: "alice" });
  bob = await createInferenceKey(gw, { name: "bob" });
  workspaceId = ((await (await gw.api("/api/v1/workspaces")).json()) as { data: Array<{ id: string }> }).data[0]!.id;
});
afterAll(async () => {
  await gw.close();
  await up.stop();
});

test("off: nothing is kept, 404", async () => {
  await settings({ is_observability_io_logging_enabled: false });
  const id = await chat(alice.key);
  const res = await content(id, alice.key);
  expect(res.status).toBe(404);
  expect(await gw.ctx.store.generationContents.get(id)).toBeUndefined();
});

test("on: the prompt and completion are kept, sealed, and read back in the contract's shape", async () => {
  await settings({ is_observability_io_logging_enabled: true, io_logging_sampling_rate: 1, io_logging_api_key_ids: null });
  up.enqueue({ text: "Hi there", reasoning: { text: "they greet", chatField: "reasoning" }, usage: { input: 9, output: 2 } });
  const id = await chat(alice.key);
  const res = await content(id, alice.key);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({
    data: {
      input: {
        messages: [
          { role: "system", content: "be brief" },
          { role: "user", content: "hello?" },
        ],
      },
      output: { completion: "Hi there", reasoning: "they greet" },
      error: null,
    },
  });
  const stored = await gw.ctx.store.generationContents.get(id);
  expect(stored?.sealed).toBeDefined();
  expect(stored!.sealed).not.toContain("hello?");
  expect(Buffer.from(stored!.sealed, "base64").toString("latin1")).not.toContain("Hi there");
  // who may read it is who may read the generation
  expect((await content(id)).status).toBe(200);
  expect((await content(id, bob.key)).status).toBe(404);
  expect((await gw.api(`/api/v1/generation?id=${id}`, { key: bob.key })).status).toBe(404);
});

test("a streamed answer, a Messages request and embeddings are kept too", async () => {
  await settings({ is_observability_io_logging_enabled: true, io_logging_sampling_rate: 1, io_logging_api_key_ids: null });
  up.enqueue({ text: ["str", "eamed"], usage: { input: 3, output: 2 } });
  const streamed = await chat(alice.key, { stream: true });
  expect(((await (await content(streamed, alice.key)).json()) as any).data.output).toEqual({ completion: "streamed", reasoning: null });

  up.enqueue({ text: "from claude", usage: { input: 3, output: 2 } });
  const res = await gw.api("/api/v1/messages", {
    method: "POST",
    key: alice.key,
    json: { model: "acme/claude", max_tokens: 50, system: "sys", messages: [{ role: "user", content: "yo" }] },
  });
  await res.text();
  const messages = res.headers.get("x-generation-id")!;
  expect(((await (await content(messages, alice.key)).json()) as any).data).toEqual({
    input: {
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "yo" },
      ],
    },
    output: { completion: "from claude", reasoning: null },
    error: null,
  });

  const emb = await gw.api("/api/v1/embeddings", { method: "POST", key: alice.key, json: { model: "acme/embed", input: "embed this" } });
  expect(emb.status).toBe(200);
  const embId = emb.headers.get("x-generation-id")!;
  expect(((await (await content(embId, alice.key)).json()) as any).data).toEqual({
    input: { prompt: "embed this" },
    output: { completion: null, reasoning: null },
    error: null,
  });
});

test("a failed generation's content carries its error", async () => {
  await settings({ is_observability_io_logging_enabled: true, io_logging_sampling_rate: 1, io_logging_api_key_ids: null });
  up.enqueue({ status: 400, errorBody: { error: { message: "bad request upstream", type: "invalid_request_error" } } });
  const res = await gw.api("/api/v1/chat/completions", {
    method: "POST",
    key: alice.key,
    json: { model: "acme/chat", messages: [{ role: "user", content: "fail me" }] },
  });
  expect(res.status).toBe(400);
  const id = res.headers.get("x-generation-id")!;
  const body = (await (await content(id, alice.key)).json()) as any;
  expect(body.data.input).toEqual({ messages: [{ role: "user", content: "fail me" }] });
  expect(body.data.output).toEqual({ completion: null, reasoning: null });
  expect(body.data.error).toMatchObject({ status: 400, provider_name: "mock", previous_errors: [] });
  expect(body.data.error.message).toContain("bad request upstream");
});

test("io_logging_api_key_ids: only the listed keys' generations are kept", async () => {
  await settings({ is_observability_io_logging_enabled: true, io_logging_sampling_rate: 1, io_logging_api_key_ids: [keyNumber(bob.hash)] });
  const fromAlice = await chat(alice.key);
  const fromBob = await chat(bob.key);
  expect((await content(fromAlice)).status).toBe(404);
  expect((await content(fromBob)).status).toBe(200);
});

test("io_logging_sampling_rate: the sessions the hash keeps, whole", async () => {
  await settings({ is_observability_io_logging_enabled: true, io_logging_sampling_rate: 0.5, io_logging_api_key_ids: null });
  const ws = { is_observability_io_logging_enabled: true, io_logging_sampling_rate: 0.5 };
  let kept = 0;
  for (let s = 0; s < 12; s++) {
    const ids = [await chat(alice.key, { session_id: `sess-${s}` }), await chat(alice.key, { session_id: `sess-${s}` })];
    const expected = ioLoggingKeeps(workspaceId, ws, alice.hash, { id: ids[0]!, sessionId: `sess-${s}`, trace: null });
    for (const id of ids) expect((await content(id)).status).toBe(expected ? 200 : 404);
    if (expected) kept++;
  }
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(12);
});

test("retention: the recurring purge deletes what is older than io_logging.retention_days", async () => {
  await settings({ is_observability_io_logging_enabled: true, io_logging_sampling_rate: 1, io_logging_api_key_ids: null });
  const id = await chat(alice.key);
  expect((await content(id)).status).toBe(200);
  const retentionMs = gw.ctx.config.ioLogging.retentionMs;
  expect(retentionMs).toBe(2 * 86_400_000);
  const purge = generationContentsPurgeKind(gw.ctx.store.generationContents, retentionMs, silentLogger, () => Date.now() + retentionMs - 60_000);
  expect(purge.everyMs).toBeDefined();
  await purge.run(null, { job: {} as never, signal: new AbortController().signal });
  expect((await content(id)).status).toBe(200);
  const later = generationContentsPurgeKind(gw.ctx.store.generationContents, retentionMs, silentLogger, () => Date.now() + retentionMs + 60_000);
  await later.run(null, { job: {} as never, signal: new AbortController().signal });
  const gone = await content(id);
  expect(gone.status).toBe(404);
  // the generation itself stays
  expect((await gw.api(`/api/v1/generation?id=${id}`)).status).toBe(200);
});

test("an unknown generation is 404, and so is a missing id", async () => {
  expect((await content("gen-nope")).status).toBe(404);
  expect((await gw.api("/api/v1/generation/content")).status).toBe(400);
});
