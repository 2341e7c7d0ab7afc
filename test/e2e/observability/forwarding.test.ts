// Forwarding through the whole machinery: a real gateway on port 0 with one job worker, a loopback
// mock upstream, destinations read by an in-test DestinationReader (test/support/observability-parts.ts)
// and a sender posting to a loopback receiver through the gateway's outbound client.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Destination, ObservedGeneration } from "../../../src/observability/contract";
import { createInferenceKey, startTestGateway, type TestGateway, tempDir } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { DESTINATIONS_FILE } from "../../support/observability-parts";
import { destinationOf } from "../../support/observed-generation";
import { until } from "../../support/until";

const PARTS = new URL("../../support/observability-parts.ts", import.meta.url).href;
const CANARY = "CANARY-4cf1d2a7";

let up: MockUpstream;
let gw: TestGateway;
let key: { key: string; hash: string };
let workspaceId: string;
const dir = tempDir("gw-obs-fwd-");
const destinationsFile = join(dir, DESTINATIONS_FILE);

type Received = { destination: string; generation: ObservedGeneration; at: number; raw: string };
const received: Received[] = [];
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const raw = await req.text();
    const body = JSON.parse(raw) as { destination: string; generation: ObservedGeneration };
    received.push({ ...body, at: performance.now() + performance.timeOrigin, raw });
    return new Response(null, { status: 204 });
  },
});

const yaml = (upstream: string) => `
catalog: { default: false }
security: { allow_private_urls: true }
jobs: { poll_seconds: 5, backoff_seconds: [0.05, 0.05, 0.05] }
providers:
  - { slug: mock, api: openai-chat, base_url: "${upstream}", api_key: k }
models:
  - id: acme/chat
    endpoints: [{ provider: mock, model: chat-a, pricing: { prompt: "0.000001", completion: "0.000002" } }]
  - id: acme/embed
    output_modalities: [embeddings]
    endpoints: [{ provider: mock, model: emb-a, pricing: { prompt: "0.0000001" } }]
`;

const dest = (id: string, over: Partial<Destination> = {}): Destination =>
  destinationOf("webhook", { url: `http://127.0.0.1:${receiver.port}/traces` }, { id, workspaceId, name: id, ...over });

const setDestinations = (list: Destination[]) => Bun.write(destinationsFile, JSON.stringify(list));
const setBroadcast = async (on: boolean) =>
  expect((await gw.api(`/api/v1/workspaces/${workspaceId}`, { method: "PATCH", json: { is_observability_broadcast_enabled: on } })).status).toBe(200);

async function chat(body: Record<string, unknown> = {}): Promise<{ id: string; text: string; endedAt: number }> {
  const res = await gw.api("/api/v1/chat/completions", {
    method: "POST",
    key: key.key,
    json: { model: "acme/chat", messages: [{ role: "user", content: `say ${CANARY}` }], ...body },
  });
  const text = await res.text();
  expect(res.status).toBe(200);
  return { id: res.headers.get("x-generation-id")!, text, endedAt: performance.now() + performance.timeOrigin };
}

beforeAll(async () => {
  up = await startMockUpstream();
  await Bun.write(destinationsFile, "[]");
  gw = await startTestGateway({ dir, yaml: yaml(up.url), env: { WORKERS: "1" }, jobModules: [PARTS] });
  key = await createInferenceKey(gw);
  workspaceId = ((await (await gw.api("/api/v1/workspaces")).json()) as { data: Array<{ id: string }> }).data[0]!.id;
});
afterAll(async () => {
  await gw.close();
  await up.stop();
  receiver.stop(true);
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  received.length = 0;
});

const deliveredFor = (id: string) => received.filter((r) => r.generation.id === id);

const settledJobs = async () =>
  until(
    "the forwarding jobs to settle",
    // what stays pending: the six recurring purges (responses, jobs, generation contents, response cache, audit, refused requests)
    async () => ((await gw.ctx.store.jobs.count({ state: "pending" })) + (await gw.ctx.store.jobs.count({ state: "running" })) <= 6 ? true : undefined),
    8000,
  );

test("broadcast on: one chat request, exactly one delivery per matching destination; privacy mode leaks no byte of the prompt or completion", async () => {
  await setBroadcast(true);
  await setDestinations([
    dest("d-open"),
    dest("d-private", { privacyMode: true }),
    dest("d-chat-only", {
      filterRules: {
        groups: [
          {
            rules: [
              { field: "model", operator: "equals", value: "acme/chat" },
              { field: "input", operator: "contains", value: CANARY },
            ],
          },
        ],
      },
    }),
    dest("d-other-model", { filterRules: { groups: [{ rules: [{ field: "model", operator: "starts_with", value: "other/" }] }] } }),
    dest("d-other-key", { apiKeyHashes: ["0".repeat(64)] }),
    dest("d-disabled", { enabled: false }),
  ]);
  up.enqueue({ text: `sure: ${CANARY}`, usage: { input: 11, output: 4 } });
  const { id } = await chat({ session_id: "s-1", trace: { trace_id: "t-1", trace_name: "demo" }, user: "end-user-1" });
  await until("three deliveries", () => (deliveredFor(id).length >= 3 ? true : undefined), 8000);
  await Bun.sleep(300); // nothing more arrives
  const got = deliveredFor(id);
  expect(got.map((r) => r.destination).sort()).toEqual(["d-chat-only", "d-open", "d-private"]);
  const open = got.find((r) => r.destination === "d-open")!.generation;
  expect(open).toMatchObject({
    id,
    operation: "chat",
    workspaceId,
    keyHash: key.hash,
    keyName: "test key",
    model: "acme/chat",
    providerSlug: "mock",
    streamed: false,
    status: "success",
    finishReason: "stop",
    sessionId: "s-1",
    externalUser: "end-user-1",
    trace: { trace_id: "t-1", trace_name: "demo" },
    tokens: { prompt: 11, completion: 4 },
    output: { text: `sure: ${CANARY}`, toolCalls: [] },
  });
  expect(open.cost.total).toBeCloseTo(11 * 0.000001 + 4 * 0.000002, 12);
  expect(open.input?.messages).toEqual([{ role: "user", content: `say ${CANARY}` }]);
  expect(open.attempts).toHaveLength(1);
  const privateOne = got.find((r) => r.destination === "d-private")!;
  expect(privateOne.raw).not.toContain(CANARY);
  expect(privateOne.generation).toMatchObject({ id, input: null, output: null, tokens: { prompt: 11, completion: 4 }, sessionId: "s-1" });
  // nothing in the jobs table holds the prompt in clear
  for (const job of await gw.ctx.store.jobs.list({}, 0, 100)) expect(JSON.stringify(job.payload)).not.toContain(CANARY);
}, 20_000);

test("a streamed answer is forwarded with its text", async () => {
  await setBroadcast(true);
  await setDestinations([dest("d-open")]);
  up.enqueue({ text: ["str", "eam ", CANARY], usage: { input: 3, output: 3 } });
  const { id, text } = await chat({ stream: true, stream_options: { include_usage: true } });
  expect(text).toContain("[DONE]");
  await until("the streamed delivery", () => (deliveredFor(id).length === 1 ? true : undefined), 8000);
  expect(deliveredFor(id)[0]!.generation).toMatchObject({ streamed: true, output: { text: `stream ${CANARY}` } });
}, 20_000);

test("embeddings are forwarded too, without output", async () => {
  await setBroadcast(true);
  await setDestinations([dest("d-open")]);
  const res = await gw.api("/api/v1/embeddings", { method: "POST", key: key.key, json: { model: "acme/embed", input: "vectorise me" } });
  expect(res.status).toBe(200);
  const id = res.headers.get("x-generation-id")!;
  await until("the embeddings delivery", () => (deliveredFor(id).length === 1 ? true : undefined), 8000);
  expect(deliveredFor(id)[0]!.generation).toMatchObject({
    operation: "embeddings",
    output: null,
    input: { messages: [{ role: "user", content: "vectorise me" }] },
  });
}, 20_000);

test("broadcast off: nothing is forwarded, whatever the destinations say; nothing is even queued", async () => {
  await setBroadcast(false);
  await setDestinations([dest("d-open")]);
  const { id } = await chat();
  expect(await gw.ctx.store.observationOutbox.claim("peek", Date.now(), 0, 10)).toEqual([]);
  await Bun.sleep(500);
  expect(deliveredFor(id)).toEqual([]);
  expect((await gw.ctx.store.jobs.list({ kind: "observability.deliver" }, 0, 500)).filter((j) => j.key?.endsWith(`:${id}`))).toEqual([]);
}, 20_000);

test("a destination deleted before its delivery runs gets nothing, the job ends done", async () => {
  await setBroadcast(true);
  await setDestinations([dest("d-open")]);
  // the receiver refuses the first try, so the delivery waits for its retry
  let refused = false;
  const gate = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => ((refused = true), new Response("busy", { status: 503, headers: { "retry-after": "1" } })),
  });
  try {
    await setDestinations([dest("d-flaky", { config: { url: `http://127.0.0.1:${gate.port}/t` } })]);
    const { id } = await chat();
    await until("the first refused try", () => (refused ? true : undefined), 8000);
    await setDestinations([]);
    const job = await until(
      "the delivery job to end",
      async () => {
        const [j] = (await gw.ctx.store.jobs.list({ kind: "observability.deliver" }, 0, 50)).filter((j) => j.key === `d-flaky:${id}`);
        return j && j.state === "done" ? j : undefined;
      },
      8000,
    );
    expect(job.attempts).toBe(2);
  } finally {
    gate.stop(true);
  }
}, 20_000);

test("forwarding delay on loopback: the answer's last byte (after the record commit) → the receiver", async () => {
  await setBroadcast(true);
  await setDestinations([dest("d-open")]);
  const delays: number[] = [];
  for (let i = 0; i < 60; i++) {
    const { id, endedAt } = await chat({ session_id: `delay-${i}` });
    const [got] = await until("delivery", () => (deliveredFor(id).length === 1 ? deliveredFor(id) : undefined), 8000, 1);
    delays.push(got!.at - endedAt);
  }
  delays.sort((a, b) => a - b);
  const p = (q: number) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))]!;
  console.log(`forwarding delay on loopback over ${delays.length} requests: p50 ${p(0.5).toFixed(1)} ms, p99 ${p(0.99).toFixed(1)} ms`);
  expect(p(0.5)).toBeLessThan(1000);
  await settledJobs();
}, 60_000);
