// The outbox across a SIGKILL: generations answered by a gateway that is killed at once (its
// records and their outbox rows committed together, nothing delivered yet) are each delivered
// exactly once per destination by the gateway started again on the same database.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Destination, ObservedGeneration } from "../../../src/observability/contract";
import { tempDir } from "../../support/gateway";
import { startGatewayProcess } from "../../support/gateway-process";
import { startMockUpstream } from "../../support/mock-upstream";
import { DESTINATIONS_FILE } from "../../support/observability-parts";
import { until } from "../../support/until";

const ENTRY = ["bun", "test/support/gateway-entry.ts", "observability-parts.ts"];
const dir = tempDir("gw-obs-kill-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("records answered before a SIGKILL are forwarded after the restart, once per destination", async () => {
  const up = await startMockUpstream();
  const received: Array<{ destination: string; generation: ObservedGeneration }> = [];
  const receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req) => (received.push((await req.json()) as (typeof received)[number]), new Response(null, { status: 200 })),
  });
  const yaml = join(dir, "gateway.yaml");
  await Bun.write(
    yaml,
    `catalog: { default: false }\nsecurity: { allow_private_urls: true }\njobs: { poll_seconds: 0.2 }\nproviders:\n  - { slug: mock, api: openai-chat, base_url: "${up.url}", api_key: k }\nmodels:\n  - id: acme/chat\n    endpoints: [{ provider: mock, model: chat-a }]\n`,
  );
  const env = { DATABASE_URL: `file:${join(dir, "g.db")}`, GATEWAY_CONFIG: yaml };
  try {
    // first life: no job workers, so nothing is delivered before the kill
    let gw = await startGatewayProcess({ ...env, WORKERS: "0" }, ENTRY);
    const workspaceId = ((await (await gw.api("/api/v1/workspaces")).json()) as { data: Array<{ id: string }> }).data[0]!.id;
    expect((await gw.api(`/api/v1/workspaces/${workspaceId}`, { method: "PATCH", json: { is_observability_broadcast_enabled: true } })).status).toBe(200);
    const dest = (id: string): Destination => ({
      id,
      workspaceId,
      type: "webhook",
      name: id,
      enabled: true,
      privacyMode: false,
      samplingRate: 1,
      apiKeyHashes: null,
      filterRules: null,
      broadcastGenerationCost: false,
      broadcastGenerationIdentity: false,
      broadcastGenerationRequestContext: false,
      config: { url: `http://127.0.0.1:${receiver.port}/t` },
    });
    await Bun.write(join(dir, DESTINATIONS_FILE), JSON.stringify([dest("d1"), dest("d2")]));
    const key = ((await (await gw.api("/api/v1/keys", { method: "POST", json: { name: "k" } })).json()) as { key: string }).key;
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await gw.api("/api/v1/chat/completions", {
        method: "POST",
        key,
        json: { model: "acme/chat", messages: [{ role: "user", content: `n${i}` }] },
      });
      expect(res.status).toBe(200);
      await res.text();
      ids.push(res.headers.get("x-generation-id")!);
    }
    await gw.kill();
    expect(received).toEqual([]);

    gw = await startGatewayProcess({ ...env, WORKERS: "1" }, ENTRY);
    try {
      await until("every delivery", () => (received.length >= ids.length * 2 ? true : undefined), 15_000, 20);
      await Bun.sleep(500);
      const pairs = received.map((r) => `${r.destination}:${r.generation.id}`).sort();
      expect(pairs).toEqual(ids.flatMap((id) => [`d1:${id}`, `d2:${id}`]).sort());
    } finally {
      await gw.stop();
    }
  } finally {
    receiver.stop(true);
    await up.stop();
  }
}, 60_000);
