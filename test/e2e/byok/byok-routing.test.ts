import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import type { MockUpstream } from "../../support/mock-upstream";
import { byokYaml, COST, chat, createByok, json, keyCheckingUpstream } from "./helpers";

let gw: TestGateway;
let up: MockUpstream;
let failing: Set<string>;
let keysSeen: (from?: number) => string[];

beforeAll(async () => {
  ({ up, failing, keysSeen } = await keyCheckingUpstream());
  gw = await startTestGateway({ yaml: byokYaml(up.url) });
});
afterAll(async () => {
  await gw.close();
  await up.stop();
});

let n = 0;
async function workspace(extra: Record<string, unknown> = {}): Promise<string> {
  n += 1;
  const res = await gw.api("/api/v1/workspaces", { method: "POST", json: { name: `R ${n}`, slug: `r-${n}`, ...extra } });
  return ((await res.json()) as any).data.id;
}

/** Sends one chat request and returns the keys the upstream saw for it, in order. */
async function route(key: string, body: Record<string, unknown> = {}): Promise<{ status: number; keys: string[]; body: any; generationId: string | null }> {
  const before = up.requests.length;
  const res = await chat(gw, key, body);
  const parsed = body.stream ? await res.text() : await json(res);
  return { status: res.status, keys: keysSeen(before), body: parsed, generationId: res.headers.get("x-generation-id") };
}

async function generation(id: string, key: string): Promise<any> {
  return ((await json(await gw.api(`/api/v1/generation?id=${id}`, { key }))) as any).data;
}

describe("BYOK in routing", () => {
  test("order: BYOK by sort_order, then the gateway's own key, then fallback credentials; each failure falls over", async () => {
    const ws = await workspace();
    await createByok(gw, { key: "byok-first", workspace_id: ws });
    await createByok(gw, { key: "byok-fallback", workspace_id: ws, is_fallback: true });
    await createByok(gw, { key: "byok-second", workspace_id: ws });
    const { key } = await createInferenceKey(gw, { workspace_id: ws });

    const first = await route(key);
    expect(first.status).toBe(200);
    expect(first.keys).toEqual(["byok-first"]);

    failing.add("byok-first");
    expect((await route(key)).keys).toEqual(["byok-first", "byok-second"]);

    failing.add("byok-second");
    const own = await route(key);
    expect(own.keys).toEqual(["byok-first", "byok-second", "gateway-own-key"]);
    expect(own.status).toBe(200);

    failing.add("gateway-own-key");
    const last = await route(key);
    expect(last.status).toBe(200);
    expect(last.keys).toEqual(["byok-first", "byok-second", "gateway-own-key", "byok-fallback"]);

    failing.add("byok-fallback");
    const none = await route(key);
    expect(none.status).toBe(502);
    expect(none.keys).toEqual(["byok-first", "byok-second", "gateway-own-key", "byok-fallback"]);
    failing.clear();
  });

  test("generations record is_byok, and the response usage says so", async () => {
    const ws = await workspace();
    await createByok(gw, { key: "byok-flag", workspace_id: ws });
    const { key } = await createInferenceKey(gw, { workspace_id: ws });
    const byok = await route(key);
    expect(byok.body.usage.is_byok).toBe(true);
    expect((await generation(byok.generationId!, key)).is_byok).toBe(true);

    failing.add("byok-flag");
    const own = await route(key);
    expect(own.keys).toEqual(["byok-flag", "gateway-own-key"]);
    expect(own.body.usage.is_byok).toBe(false);
    expect((await generation(own.generationId!, key)).is_byok).toBe(false);
    failing.clear();

    const streamed = await route(key, { stream: true, stream_options: { include_usage: true } });
    expect(streamed.keys).toEqual(["byok-flag"]);
    expect((await generation(streamed.generationId!, key)).is_byok).toBe(true);
  });

  test("only the request's workspace's credentials are used; a workspace without any uses the gateway's key", async () => {
    const a = await workspace();
    const b = await workspace();
    await createByok(gw, { key: "byok-of-b", workspace_id: b });
    const { key: keyA } = await createInferenceKey(gw, { workspace_id: a });
    const { key: keyB } = await createInferenceKey(gw, { workspace_id: b });
    expect((await route(keyA)).keys).toEqual(["gateway-own-key"]);
    expect((await route(keyB)).keys).toEqual(["byok-of-b"]);
  });

  test("allowed_models, allowed_user_ids and allowed_api_key_hashes restrict who and what a credential serves", async () => {
    const ws = await workspace();
    await gw.api("/api/v1/organization/members", { method: "POST", json: { id: "byok-user", role: "member" } });
    const { key: plain, hash: plainHash } = await createInferenceKey(gw, { workspace_id: ws });
    const { key: userKey } = await createInferenceKey(gw, { workspace_id: ws, creator_user_id: "byok-user" });
    const { key: other } = await createInferenceKey(gw, { workspace_id: ws });
    await createByok(gw, { key: "byok-beta-only", workspace_id: ws, allowed_models: ["test/beta"] });
    await createByok(gw, { key: "byok-user-only", workspace_id: ws, allowed_user_ids: ["byok-user"] });
    await createByok(gw, { key: "byok-hash-only", workspace_id: ws, allowed_api_key_hashes: [plainHash] });

    expect((await route(other)).keys).toEqual(["gateway-own-key"]);
    expect((await route(other, { model: "test/beta" })).keys).toEqual(["byok-beta-only"]);
    expect((await route(userKey)).keys).toEqual(["byok-user-only"]);
    expect((await route(plain)).keys).toEqual(["byok-hash-only"]);
  });

  test("disabled credentials are skipped; is_byok_only and is_required keep the gateway's key out", async () => {
    const ws = await workspace();
    const cred = await createByok(gw, { key: "byok-toggle", workspace_id: ws, disabled: true });
    const { key } = await createInferenceKey(gw, { workspace_id: ws });
    expect((await route(key)).keys).toEqual(["gateway-own-key"]);

    await gw.api(`/api/v1/byok/${cred.id}`, { method: "PATCH", json: { disabled: false, is_byok_only: true } });
    failing.add("byok-toggle");
    const only = await route(key);
    expect(only.keys).toEqual(["byok-toggle"]);
    expect(only.status).toBe(502);

    await gw.api(`/api/v1/byok/${cred.id}`, { method: "PATCH", json: { is_byok_only: false, is_required: true } });
    expect((await route(key)).keys).toEqual(["byok-toggle"]);

    await gw.api(`/api/v1/byok/${cred.id}`, { method: "PATCH", json: { is_required: false } });
    expect((await route(key)).keys).toEqual(["byok-toggle", "gateway-own-key"]);
    failing.clear();
  });

  test("a provider without a gateway key is served only with BYOK credentials", async () => {
    const ws = await workspace();
    const { key } = await createInferenceKey(gw, { workspace_id: ws });
    const without = await route(key, { model: "test/solo" });
    expect(without.status).toBe(503);
    expect(without.keys).toEqual([]);
    await createByok(gw, { provider: "solo", key: "byok-solo", workspace_id: ws });
    const served = await route(key, { model: "test/solo" });
    expect(served.status).toBe(200);
    expect(served.keys).toEqual(["byok-solo"]);
    expect(up.requests.at(-1)!.body.model).toBe("solo-1");
  });

  test("the workspace's default_text_model serves a request that names no model", async () => {
    const ws = await workspace({ default_text_model: "test/beta" });
    const { key } = await createInferenceKey(gw, { workspace_id: ws });
    const before = up.requests.length;
    const res = await gw.api("/api/v1/chat/completions", { method: "POST", key, json: { messages: [{ role: "user", content: "hi" }], max_tokens: 5 } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).model).toBe("test/beta");
    expect(up.requests.slice(before).map((r) => r.body.model)).toEqual(["beta-1"]);
  });
});

describe("BYOK spend", () => {
  async function keyData(key: string) {
    return ((await json(await gw.api("/api/v1/key", { key }))) as any).data;
  }

  test("BYOK cost goes to byok_usage, not usage, and does not count against the limit by default", async () => {
    const ws = await workspace();
    await createByok(gw, { key: "byok-spend", workspace_id: ws });
    const { key } = await createInferenceKey(gw, { workspace_id: ws, limit: 0.001 });
    for (let i = 0; i < 3; i++) {
      const r = await route(key);
      expect(r.status).toBe(200);
      expect(r.body.usage.cost).toBeCloseTo(COST, 12);
    }
    const data = await keyData(key);
    expect(data.usage).toBe(0);
    expect(data.byok_usage).toBeCloseTo(3 * COST, 12);
    expect(data.byok_usage_daily).toBeCloseTo(3 * COST, 12);
    expect(data.limit_remaining).toBe(0.001);
  });

  test("with include_byok_in_limit, BYOK cost counts and the limit stops the key", async () => {
    const ws = await workspace();
    await createByok(gw, { key: "byok-limited", workspace_id: ws });
    const { key } = await createInferenceKey(gw, { workspace_id: ws, limit: 0.001, include_byok_in_limit: true });
    expect((await route(key)).status).toBe(200);
    const data = await keyData(key);
    expect(data.byok_usage).toBeCloseTo(COST, 12);
    expect(data.usage).toBe(0);
    expect(data.limit_remaining).toBeCloseTo(0.001 - COST, 12);
    // the worst case of the next request (~$0.0007) no longer fits in the $0.0004 left
    const refused = await route(key);
    expect(refused.status).toBe(402);
    expect(refused.keys).toEqual([]);
  });

  test("cost served by the gateway's own key after a BYOK failure goes to usage", async () => {
    const ws = await workspace();
    await createByok(gw, { key: "byok-broken", workspace_id: ws });
    const { key } = await createInferenceKey(gw, { workspace_id: ws });
    failing.add("byok-broken");
    const r = await route(key);
    failing.clear();
    expect(r.keys).toEqual(["byok-broken", "gateway-own-key"]);
    const data = await keyData(key);
    expect(data.usage).toBeCloseTo(COST, 12);
    expect(data.byok_usage).toBe(0);
  });
});
