// What a forwarding workspace's requests cost when no destination takes them: the choices that need
// no outcome (a destination's key list, its sampling of the session) are made when the request is
// planned, from the destinations the API created, so a request no destination takes is neither
// captured nor sealed into the outbox. No job worker runs here: the outbox rows stay where the
// commit left them, and the test reads them from the database file.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { sampledIn } from "../../../src/observability/pipeline/sampling";
import { createInferenceKey, startTestGateway, type TestGateway, tempDir } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";

let up: MockUpstream;
let gw: TestGateway;
let db: Database;
let keyA: { key: string; hash: string };
let keyB: { key: string; hash: string };
let workspaceId: string;
const dir = tempDir("gw-obs-presel-");

beforeAll(async () => {
  up = await startMockUpstream();
  gw = await startTestGateway({
    dir,
    yaml: `
catalog: { default: false }
security: { allow_private_urls: true }
providers:
  - { slug: mock, api: openai-chat, base_url: "${up.url}", api_key: k }
models:
  - id: acme/chat
    endpoints: [{ provider: mock, model: chat-a, pricing: { prompt: "0.000001", completion: "0.000002" } }]
`,
  });
  keyA = await createInferenceKey(gw, { name: "a" });
  keyB = await createInferenceKey(gw, { name: "b" });
  workspaceId = ((await (await gw.api("/api/v1/workspaces")).json()) as { data: Array<{ id: string }> }).data[0]!.id;
  expect((await gw.api(`/api/v1/workspaces/${workspaceId}`, { method: "PATCH", json: { is_observability_broadcast_enabled: true } })).status).toBe(200);
  db = new Database(join(dir, "gateway.db"), { readonly: true });
});
afterAll(async () => {
  db.close();
  await gw.close();
  await up.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** the generations waiting in the outbox (each row holds those of one commit) */
const queued = (): number => db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM observation_outbox").get()!.n;

async function chat(key: string, sessionId?: string): Promise<string> {
  up.enqueue({ text: "ok", usage: { input: 3, output: 1 } });
  const res = await gw.api("/api/v1/chat/completions", {
    method: "POST",
    key,
    json: { model: "acme/chat", messages: [{ role: "user", content: "hi" }], ...(sessionId ? { session_id: sessionId } : {}) },
  });
  expect(res.status).toBe(200);
  await res.text();
  return res.headers.get("x-generation-id")!;
}

async function createDestination(body: Record<string, unknown>): Promise<string> {
  const res = await gw.api("/api/v1/observability/destinations?skip_test=true", {
    method: "POST",
    json: { type: "webhook", config: { url: "http://127.0.0.1:9/never" }, ...body },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

test("broadcast on, no destination: nothing is queued", async () => {
  await chat(keyA.key);
  expect(queued()).toBe(0);
});

test("a destination for key B only: key A's requests are not queued, key B's are", async () => {
  const onlyB = await createDestination({ name: "only b", api_key_hashes: [keyB.hash] });
  await chat(keyA.key);
  expect(queued()).toBe(0);
  await chat(keyB.key);
  expect(queued()).toBe(1);
  // disabled, it takes nothing
  expect((await gw.api(`/api/v1/observability/destinations/${onlyB}`, { method: "PATCH", json: { enabled: false } })).status).toBe(200);
  await chat(keyB.key);
  expect(queued()).toBe(1);
});

test("sampling: a session every destination samples out is not queued, one any destination keeps is", async () => {
  const rate = 0.5;
  const sampled = await createDestination({ name: "half", sampling_rate: rate });
  const sessions = Array.from({ length: 64 }, (_, i) => `session-${i}`);
  const out = sessions.find((s) => !sampledIn(sampled, { id: "", sessionId: s, trace: null }, rate))!;
  const kept = sessions.find((s) => sampledIn(sampled, { id: "", sessionId: s, trace: null }, rate))!;
  const before = queued();
  await chat(keyA.key, out);
  await chat(keyA.key, out);
  expect(queued()).toBe(before);
  await chat(keyA.key, kept);
  expect(queued()).toBe(before + 1);
});
