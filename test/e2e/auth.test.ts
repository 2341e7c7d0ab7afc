import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ADMIN_KEY, createInferenceKey, startTestGateway, type TestGateway } from "../support/gateway";

let gw: TestGateway;
let now = Date.parse("2026-06-01T12:00:00Z");
beforeAll(async () => {
  gw = await startTestGateway({ clock: () => now });
});
afterAll(() => gw.close());

const managementRoutes: Array<[string, string]> = [
  ["GET", "/api/v1/keys"],
  ["POST", "/api/v1/keys"],
  ["GET", "/api/v1/keys/abc"],
  ["PATCH", "/api/v1/keys/abc"],
  ["DELETE", "/api/v1/keys/abc"],
];

async function status(method: string, path: string, headers: Record<string, string>) {
  const res = await fetch(gw.url + path, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: method === "GET" || method === "DELETE" ? undefined : JSON.stringify({ name: "x" }),
  });
  const body = (await res.json()) as any;
  expect(body.error?.code ?? res.status).toBe(res.status);
  return res.status;
}

describe("auth matrix", () => {
  test("missing, malformed and unknown keys get 401 on every family", async () => {
    for (const [method, path] of [...managementRoutes, ["GET", "/api/v1/key"] as [string, string]]) {
      expect(await status(method, path, {})).toBe(401);
      expect(await status(method, path, { authorization: "Basic abc" })).toBe(401);
      expect(await status(method, path, { authorization: "Bearer " })).toBe(401);
      expect(await status(method, path, { authorization: "Bearer sk-gw-v1-unknown" })).toBe(401);
    }
  });

  test("the Bearer scheme is read in any case; a key in the query string or without a scheme is no key", async () => {
    const k = await createInferenceKey(gw);
    expect(await status("GET", "/api/v1/key", { authorization: `bearer ${k.key}` })).toBe(200);
    expect(await status("GET", "/api/v1/key", { authorization: `BEARER ${k.key}` })).toBe(200);
    expect(await status("GET", "/api/v1/key", { "x-api-key": k.key })).toBe(200);
    expect(await status("GET", `/api/v1/key?access_token=${encodeURIComponent(k.key)}`, {})).toBe(401);
    expect(await status("GET", "/api/v1/key", { authorization: k.key })).toBe(401);
  });

  test("an inference key on a management route gets 403; a management key passes", async () => {
    const k = await createInferenceKey(gw);
    for (const [method, path] of managementRoutes) {
      expect(await status(method, path, { authorization: `Bearer ${k.key}` })).toBe(403);
      expect(await status(method, path, { authorization: `Bearer ${ADMIN_KEY}` })).not.toBeOneOf([401, 403]);
    }
    expect(await status("GET", "/api/v1/key", { authorization: `Bearer ${k.key}` })).toBe(200);
  });

  test("disabled and expired keys get 401", async () => {
    const disabled = await createInferenceKey(gw);
    await gw.api(`/api/v1/keys/${disabled.hash}`, { method: "PATCH", json: { disabled: true } });
    expect(await status("GET", "/api/v1/key", { authorization: `Bearer ${disabled.key}` })).toBe(401);

    const expiring = await createInferenceKey(gw, { expires_at: "2026-06-01T13:00:00Z" });
    expect(await status("GET", "/api/v1/key", { authorization: `Bearer ${expiring.key}` })).toBe(200);
    now = Date.parse("2026-06-01T13:00:00Z");
    const res = await gw.api("/api/v1/key", { key: expiring.key });
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).error.message).toContain("expired");
    now = Date.parse("2026-06-01T12:00:00Z");
  });

  test("keys are stored only as SHA-256 digests", async () => {
    const k = await createInferenceKey(gw);
    const { Database } = await import("bun:sqlite");
    const db = new Database(`${gw.dir}/gateway.db`, { readonly: true });
    const dump = JSON.stringify(db.query("SELECT * FROM api_keys").all());
    db.close();
    expect(dump).toContain(k.hash);
    expect(dump).not.toContain(k.key);
    expect(dump).not.toContain(ADMIN_KEY);
  });
});

describe("error shape", () => {
  test("unknown routes are 404 in the standard body", async () => {
    const res = await fetch(`${gw.url}/api/v1/does-not-exist`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 404, message: "No route for GET /api/v1/does-not-exist" } });
  });

  test("bodies over the limit are 413", async () => {
    const big = "x".repeat(33 * 1024 * 1024);
    const res = await gw.api("/api/v1/keys", { method: "POST", body: big, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).error.code).toBe(413);
  });
});

test("chunked bodies over the limit are 413 too", async () => {
  const chunk = new TextEncoder().encode("x".repeat(1024 * 1024));
  let sent = 0;
  const stream = new ReadableStream({
    pull(controller) {
      if (sent++ >= 40) return controller.close();
      controller.enqueue(chunk);
    },
  });
  const res = await fetch(`${gw.url}/api/v1/keys`, {
    method: "POST",
    body: stream,
    headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_KEY}` },
  });
  expect(res.status).toBe(413);
});
