// A hit is served only while the endpoint that made it may still serve the request: after a
// reload moves the model to another provider, the kept answer is a miss and the new answer
// replaces it. The response_cache section itself is reloadable.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { loadConfig } from "../../../src/config";
import { ADMIN_KEY } from "../../support/gateway";
import type { GatewayAndUpstream } from "../../support/gateway-and-upstream";
import { CACHE_ON, cacheYaml, startCacheGateway } from "./support";

let h: GatewayAndUpstream;

/** gateway.yaml rewritten and reloaded, as SIGHUP does */
async function reloadWith(yaml: string) {
  const path = join(h.gw.dir, "gateway.yaml");
  await Bun.write(path, yaml);
  const env = {
    PORT: "0",
    DATABASE_URL: `file:${join(h.gw.dir, "gateway.db")}`,
    GATEWAY_ADMIN_KEY: ADMIN_KEY,
    LOG_LEVEL: "error",
    GATEWAY_CONFIG: path,
    WORKERS: "0",
  };
  expect(h.gw.reload(() => loadConfig(env))).toMatchObject({ ok: true });
}

beforeAll(async () => {
  h = await startCacheGateway(CACHE_ON);
});
afterAll(() => h.close());

const ask = () =>
  h.gw.api("/api/v1/chat/completions", { method: "POST", key: h.key, json: { model: "t/chat", messages: [{ role: "user", content: "moving" }] } });

test("the model moved to another provider: MISS, and the new provider's answer is kept", async () => {
  h.up.enqueue({ text: "from chat-up" }, { text: "from messages-up" });
  await ask();
  expect((await ask()).headers.get("x-gateway-cache")).toBe("HIT");
  const moved = cacheYaml(CACHE_ON)(h.up.url).replace("provider: chat-up, model: up-chat", "provider: messages-up, model: up-messages");
  await reloadWith(moved);
  const miss = await ask();
  expect(miss.headers.get("x-gateway-cache")).toBe("MISS");
  expect(((await miss.json()) as any).choices[0].message.content).toBe("from messages-up");
  const hit = await ask();
  expect(hit.headers.get("x-gateway-cache")).toBe("HIT");
  expect(((await hit.json()) as any).choices[0].message.content).toBe("from messages-up");
  expect(h.up.requests.map((r) => r.path)).toEqual(["/v1/chat/completions", "/v1/messages"]);
  // turned off by a reload: no header, nothing served from the cache
  await reloadWith(moved.replace("enabled: true", "enabled: false"));
  const off = await ask();
  expect(off.headers.get("x-gateway-cache")).toBeNull();
  expect(h.up.requests.length).toBe(3);
});
