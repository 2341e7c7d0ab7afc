/** Workspace webhook_url (checked when saved) and the webhook signing secret (shown once, stored sealed, rotated with overlap). */

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { deliverWebhook } from "../../../src/jobs/webhooks/deliver";
import { webhookSigningSecrets } from "../../../src/jobs/webhooks/workspace-signing-secrets";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { refusedUrls, testLookup } from "../../support/ssrf-table";

const START = Date.parse("2026-11-22T12:00:00Z");
const HOUR = 3_600_000;
let now = START;
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ lookup: testLookup, clock: () => now });
});
afterAll(() => gw.close());

async function call(method: string, path: string, json?: unknown, key?: string) {
  const res = await gw.api(path, { method, json, key });
  return { status: res.status, text: await res.text() };
}
const refusal = (reason: string) => ({ error: { code: 400, message: `webhook_url ${reason}`, metadata: { field: "webhook_url", reason } } });

let n = 0;
async function createWs(extra: Record<string, unknown> = {}) {
  n += 1;
  const res = await call("POST", "/api/v1/workspaces", { name: `Hooks ${n}`, slug: `hooks-${n}`, ...extra });
  expect(res.status).toBe(201);
  return JSON.parse(res.text).data;
}

describe("webhook_url is checked when saved", () => {
  for (const [form, url, reason] of refusedUrls(9)) {
    test(`refused on create and on patch: ${form}`, async () => {
      const created = await call("POST", "/api/v1/workspaces", { name: "Refused", slug: "refused", webhook_url: url });
      expect([created.status, JSON.parse(created.text)]).toEqual([400, refusal(reason)]);
      const patched = await call("PATCH", "/api/v1/workspaces/default", { webhook_url: url });
      expect([patched.status, JSON.parse(patched.text)]).toEqual([400, refusal(reason)]);
    });
  }

  test("a host that does not resolve is refused", async () => {
    const res = await call("POST", "/api/v1/workspaces", { name: "Nowhere", slug: "nowhere", webhook_url: "https://nowhere.test/hook" });
    expect([res.status, JSON.parse(res.text)]).toEqual([400, refusal("host 'nowhere.test' does not resolve")]);
  });

  test("a public https URL is kept and returned; patch replaces and clears it", async () => {
    const ws = await createWs({ webhook_url: "https://public.test/hooks?team=1" });
    expect(ws.webhook_url).toBe("https://public.test/hooks?team=1");
    expect(JSON.parse((await call("GET", `/api/v1/workspaces/${ws.id}`)).text).data.webhook_url).toBe("https://public.test/hooks?team=1");
    const replaced = JSON.parse((await call("PATCH", `/api/v1/workspaces/${ws.id}`, { webhook_url: "https://public.test/other" })).text).data;
    expect(replaced.webhook_url).toBe("https://public.test/other");
    const renamed = JSON.parse((await call("PATCH", `/api/v1/workspaces/${ws.id}`, { name: "Renamed" })).text).data;
    expect(renamed.webhook_url).toBe("https://public.test/other");
    const cleared = JSON.parse((await call("PATCH", `/api/v1/workspaces/${ws.id}`, { webhook_url: null })).text).data;
    expect(cleared.webhook_url).toBeNull();
  });

  test("with allow_private_urls an on-premise http URL is accepted", async () => {
    const onPrem = await startTestGateway({ env: { GATEWAY_ALLOW_PRIVATE_URLS: "true" }, lookup: testLookup });
    try {
      const res = await onPrem.api("/api/v1/workspaces", {
        method: "POST",
        json: { name: "On prem", slug: "on-prem", webhook_url: "http://10.0.0.7:8080/hook" },
      });
      expect(res.status).toBe(201);
      expect(((await res.json()) as any).data.webhook_url).toBe("http://10.0.0.7:8080/hook");
    } finally {
      await onPrem.close();
    }
  });
});

describe("webhook signing secret", () => {
  test("management keys only; unknown workspace is 404", async () => {
    const { key } = await createInferenceKey(gw);
    const denied = await call("POST", "/api/v1/workspaces/default/webhook-secret", undefined, key);
    expect(denied.status).toBe(403);
    const missing = await call("POST", "/api/v1/workspaces/no-such-ws/webhook-secret");
    expect([missing.status, JSON.parse(missing.text)]).toEqual([404, { error: { code: 404, message: "Workspace not found: no-such-ws" } }]);
  });

  test("shown once, never in any later answer, stored sealed", async () => {
    const ws = await createWs();
    const res = await gw.api(`/api/v1/workspaces/${ws.id}/webhook-secret`, { method: "POST" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { secret: string } };
    expect(Object.keys(body)).toEqual(["data"]);
    expect(Object.keys(body.data)).toEqual(["secret"]);
    const { secret } = body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const keyPart = secret.slice("whsec_".length);

    const answers = [
      await call("GET", "/api/v1/workspaces"),
      await call("GET", `/api/v1/workspaces/${ws.id}`),
      await call("PATCH", `/api/v1/workspaces/${ws.id}`, { description: "patched" }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain(keyPart);
    }

    const db = new Database(join(gw.dir, "gateway.db"), { readonly: true });
    const row = db.query("select * from workspace_webhook_secrets where workspace_id = ?").get(ws.id) as Record<string, unknown>;
    db.close();
    expect(Object.keys(row).sort()).toEqual(["previous_valid_until", "rotated_at", "sealed_previous_secret", "sealed_secret", "workspace_id"]);
    expect(row.sealed_previous_secret).toBeNull();
    expect(String(row.sealed_secret)).not.toContain(keyPart);
    expect(await gw.ctx.secrets!.open(String(row.sealed_secret))).toBe(secret);
    for (const file of readdirSync(gw.dir).filter((f) => f.startsWith("gateway.db"))) {
      expect(readFileSync(join(gw.dir, file)).includes(keyPart)).toBe(false);
    }
  });

  test("after a rotation both secrets sign for 24 h, then only the new one", async () => {
    const ws = await createWs();
    const rotate = async () =>
      ((await (await gw.api(`/api/v1/workspaces/${ws.id}/webhook-secret`, { method: "POST", json: {} })).json()) as any).data.secret as string;
    const first = await rotate();
    expect(await webhookSigningSecrets(gw.ctx, ws.id)).toEqual([first]);
    now += HOUR;
    const rotatedAt = now;
    const second = await rotate();
    expect(second).not.toBe(first);

    let lastHeaders = new Headers();
    const receiver = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => ((lastHeaders = req.headers), new Response(null, { status: 204 })) });
    const signatureAt = async (at: number) => {
      now = at;
      const secrets = await webhookSigningSecrets(gw.ctx, ws.id);
      const outbound = {
        allowPrivate: true,
        lookup: testLookup,
        lookupTimeoutMs: 1_000,
        totalTimeoutMs: 2_000,
        connectTimeoutMs: 1_000,
        maxResponseBytes: 65_536,
      };
      const outcome = await deliverWebhook(
        { id: "evt_rotation", url: `http://127.0.0.1:${receiver.port}/`, body: "{}" },
        { clock: () => now, secrets, outbound },
      );
      expect(outcome).toEqual({ kind: "delivered", status: 204 });
      return lastHeaders.get("webhook-signature");
    };
    const expected = (secret: string, at: number) => new Webhook(secret).sign("evt_rotation", new Date(Math.floor(at / 1000) * 1000), "{}");
    try {
      const during = rotatedAt + 24 * HOUR - 1_000;
      expect(await signatureAt(during)).toBe(`${expected(second, during)} ${expected(first, during)}`);
      const after = rotatedAt + 24 * HOUR;
      expect(await signatureAt(after)).toBe(expected(second, after));
    } finally {
      receiver.stop(true);
      now = START;
    }
  });
});
