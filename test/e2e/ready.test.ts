// /ready names what is down: the database always, Redis when the deployment has one.
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { startTestGateway } from "../support/gateway";
import { freePort } from "../support/gateway-process";

test("ready on SQLite with shared state in memory", async () => {
  const gw = await startTestGateway();
  try {
    const res = await fetch(`${gw.url}/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ready", database: "sqlite", shared_state: "memory" });
    // the root points a browser at the API reference
    const root = await fetch(`${gw.url}/`, { redirect: "manual" });
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/docs");
  } finally {
    await gw.close();
  }
});

test("an unreachable Redis: 503 naming it, while requests are still served", async () => {
  const closed = await freePort();
  const gw = await startTestGateway({ env: { REDIS_URL: `redis://127.0.0.1:${closed}`, REDIS_PREFIX: "ready-test:" } });
  try {
    const res = await fetch(`${gw.url}/ready`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: { code: 503, message: "Not ready: redis unreachable", metadata: { unavailable: ["redis unreachable"] } } });
    // the instance works alone meanwhile
    expect((await gw.api("/api/v1/key")).status).toBe(200);
  } finally {
    await gw.close();
  }
});

test("a closed database: 503 naming it", async () => {
  const gw = await startTestGateway();
  try {
    await gw.ctx.store.close();
    const res = await fetch(`${gw.url}/ready`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).error.message).toBe("Not ready: database (sqlite) unreachable or migrations pending");
  } finally {
    await gw.server.stop(true);
    rmSync(gw.dir, { recursive: true, force: true });
  }
});
