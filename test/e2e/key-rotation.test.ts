// POST /api/v1/keys/{hash}/rotate: a new secret whose hash becomes the key's; the key keeps its
// name, limits, usage and history, workspace and rate limits; the old secret works for the grace
// period (then 401), or not at all with grace_seconds 0.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createInferenceKey } from "../support/gateway";
import { type GatewayAndUpstream, startGatewayAndUpstream } from "../support/gateway-and-upstream";

let h: GatewayAndUpstream;

beforeAll(async () => {
  h = await startGatewayAndUpstream({
    yaml: (url) => `
providers: [{ slug: pa, api: openai-chat, base_url: "${url}", api_key: k }]
models:
  - id: t/ok
    endpoints: [{ provider: pa, model: up-a, pricing: { prompt: "0.000001", completion: "0.000002" } }]
`,
  });
  h.up.setHandler(() => ({ text: "ok", usage: { input: 10, output: 5 } }));
});
afterAll(() => h.close());

const chat = (key: string) =>
  h.gw.api("/api/v1/chat/completions", { method: "POST", key, json: { model: "t/ok", messages: [{ role: "user", content: "hi" }] } });
const rotate = (hash: string, body?: unknown, key?: string) =>
  h.gw.api(`/api/v1/keys/${hash}/rotate`, { method: "POST", key, ...(body === undefined ? {} : { json: body }) });

test("with a grace: the key keeps everything but its hash; the old secret works until the grace ends", async () => {
  await h.gw.api("/api/v1/workspaces", { method: "POST", json: { name: "Rotation", slug: "rotation" } });
  const { key: oldRaw, hash: oldHash } = await createInferenceKey(h.gw, {
    name: "to rotate",
    limit: 2,
    limit_reset: "monthly",
    rate_limit: { rpm: 100 },
    workspace_id: "rotation",
  });
  const first = await chat(oldRaw);
  expect(first.status).toBe(200);
  const before = ((await (await h.gw.api(`/api/v1/keys/${oldHash}`)).json()) as { data: Record<string, unknown> }).data;

  const res = await rotate(oldHash, { grace_seconds: 2 });
  expect(res.status).toBe(200);
  const { data, key: newRaw } = (await res.json()) as { data: Record<string, unknown>; key: string };
  expect(newRaw).toMatch(/^sk-gw-v1-/);
  expect(data.hash).toBe(new Bun.CryptoHasher("sha256").update(newRaw).digest("hex"));
  const { hash: _h, label, updated_at, ...kept } = data;
  const { hash: _oh, label: oldLabel, updated_at: _u, ...keptBefore } = before;
  expect(kept).toEqual(keptBefore);
  expect(kept).toMatchObject({ name: "to rotate", limit: 2, limit_reset: "monthly", rate_limit: { rpm: 100, tpm: null, concurrency: null }, usage: 0.00002 });
  expect(label).not.toBe(oldLabel);
  expect(updated_at).toEqual(expect.any(String));

  // the key is its new hash from now on; its history went with it
  expect((await h.gw.api(`/api/v1/keys/${oldHash}`)).status).toBe(404);
  expect((await h.gw.api(`/api/v1/keys/${data.hash}`)).status).toBe(200);
  const generations = (await (await h.gw.api(`/api/v1/generations?api_key_hash=${data.hash}`)).json()) as { data: Array<{ id: string }> };
  expect(generations.data.map((g) => g.id)).toEqual([first.headers.get("x-generation-id")!]);

  // both secrets work during the grace, and both spend on the one key
  expect((await chat(newRaw)).status).toBe(200);
  expect((await chat(oldRaw)).status).toBe(200);
  const after = ((await (await h.gw.api(`/api/v1/keys/${data.hash}`)).json()) as { data: { usage: number } }).data;
  expect(after.usage).toBeCloseTo(0.00006, 12);
  await Bun.sleep(2_100);
  const late = await chat(oldRaw);
  expect(late.status).toBe(401);
  expect(((await late.json()) as { error: { message: string } }).error.message).toBe("Invalid API key");
  expect((await chat(newRaw)).status).toBe(200);
});

test("grace_seconds 0: the old secret stops at once; no body: a day's grace", async () => {
  const a = await createInferenceKey(h.gw, { name: "at once" });
  const now = await rotate(a.hash, { grace_seconds: 0 });
  expect(now.status).toBe(200);
  expect((await chat(a.key)).status).toBe(401);
  const b = await createInferenceKey(h.gw, { name: "default grace" });
  const res = await rotate(b.hash);
  expect(res.status).toBe(200);
  expect((await chat(b.key)).status).toBe(200);
  const previous = await h.gw.ctx.store.keys.previous(b.hash);
  expect(previous!.validUntil - Date.now()).toBeGreaterThan(86_400_000 - 60_000);
});

test("refusals: an unknown key 404, a negative grace 400 naming it, an inference key 403", async () => {
  expect((await rotate("f".repeat(64), { grace_seconds: 10 })).status).toBe(404);
  const bad = await rotate(h.keyHash, { grace_seconds: -1 });
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as { error: { metadata: { field: string } } }).error.metadata.field).toBe("grace_seconds");
  expect((await rotate(h.keyHash, { grace_seconds: 1 }, h.key)).status).toBe(403);
});
