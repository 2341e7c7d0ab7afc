/** Signed deliveries checked by independent verifiers: the standardwebhooks package and an OpenRouter-style one. */
import { afterAll, describe, expect, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { deliverWebhook } from "../../../src/jobs/webhooks/deliver";
import { newWebhookSecret, ROTATION_OVERLAP_MS, secretsInForce } from "../../../src/jobs/webhooks/signing-secrets";
import type { OutboundOptions } from "../../../src/outbound/client";

/** what a receiver following OpenRouter's docs writes: t and v1 from the header, HMAC of `t,body` with the secret's bytes */
function verifyOpenRouter(secret: string, header: string, body: string, nowSeconds: number): boolean {
  const parts = header.split(",").map((p) => p.split("=") as [string, string]);
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t},${body}`).digest();
  return parts.some(([k, v]) => k === "v1" && v.length === expected.length * 2 && timingSafeEqual(Buffer.from(v, "hex"), expected));
}

type Received = { headers: Headers; body: string };
const received: Received[] = [];
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    received.push({ headers: req.headers, body: await req.text() });
    return new Response(null, { status: 204 });
  },
});
afterAll(() => receiver.stop(true));

const outbound: OutboundOptions = {
  allowPrivate: true,
  lookup: async () => [],
  lookupTimeoutMs: 1_000,
  totalTimeoutMs: 2_000,
  connectTimeoutMs: 1_000,
  maxResponseBytes: 65_536,
};
const body = JSON.stringify({ type: "video.generation.completed", created_at: "2026-11-22T12:00:00.000Z", data: { id: "job_1", status: "completed" } });
const send = async (secrets: string[], at: number) => {
  const outcome = await deliverWebhook({ id: "job_1-completed", url: `http://127.0.0.1:${receiver.port}/hook`, body }, { clock: () => at, secrets, outbound });
  expect(outcome).toEqual({ kind: "delivered", status: 204 });
  return received.at(-1)!;
};

describe("signed deliveries", () => {
  test("verify with standardwebhooks' Webhook.verify and with the OpenRouter-style verifier", async () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const now = Date.now();
    const got = await send([secret], now);
    expect(got.body).toBe(body);
    expect(new Webhook(secret).verify(got.body, Object.fromEntries(got.headers))).toEqual(JSON.parse(body));
    expect(verifyOpenRouter(secret, got.headers.get("x-openrouter-signature")!, got.body, Math.floor(now / 1000))).toBe(true);
    expect(verifyOpenRouter(newWebhookSecret(), got.headers.get("x-openrouter-signature")!, got.body, Math.floor(now / 1000))).toBe(false);
    expect(() => new Webhook(newWebhookSecret()).verify(got.body, Object.fromEntries(got.headers))).toThrow("No matching signature found");
    expect(got.headers.get("content-type")).toBe("application/json");
    expect(got.headers.get("x-openrouter-idempotency-key")).toBe("job_1-completed");
  });

  test("webhook-id stays across attempts; each attempt has its own timestamp and signature", async () => {
    const secret = newWebhookSecret();
    const first = await send([secret], 1_700_000_000_000);
    const second = await send([secret], 1_700_000_300_000);
    expect([first.headers.get("webhook-id"), second.headers.get("webhook-id")]).toEqual(["job_1-completed", "job_1-completed"]);
    expect([first.headers.get("webhook-timestamp"), second.headers.get("webhook-timestamp")]).toEqual(["1700000000", "1700000300"]);
    expect(first.headers.get("x-openrouter-signature")!.startsWith("t=1700000000,v1=")).toBe(true);
    expect(first.headers.get("webhook-signature")).not.toBe(second.headers.get("webhook-signature"));
  });

  test("two secrets in force: two entries in each header, each verifying with its own secret", async () => {
    const [fresh, old] = [newWebhookSecret(), newWebhookSecret()];
    const now = Date.now();
    const got = await send([fresh, old], now);
    const entries = got.headers.get("webhook-signature")!.split(" ");
    expect(entries.length).toBe(2);
    expect(entries.every((e) => e.startsWith("v1,"))).toBe(true);
    for (const secret of [fresh, old]) {
      expect(new Webhook(secret).verify(got.body, Object.fromEntries(got.headers))).toEqual(JSON.parse(body));
      expect(verifyOpenRouter(secret, got.headers.get("x-openrouter-signature")!, got.body, Math.floor(now / 1000))).toBe(true);
    }
    expect(got.headers.get("x-openrouter-signature")!.split(",").length).toBe(3);
  });

  test("without a secret the ids and time go out unsigned", async () => {
    const got = await send([], 1_700_000_000_000);
    expect(got.headers.get("webhook-id")).toBe("job_1-completed");
    expect(got.headers.get("webhook-timestamp")).toBe("1700000000");
    expect(got.headers.has("webhook-signature")).toBe(false);
    expect(got.headers.has("x-openrouter-signature")).toBe(false);
  });
});

describe("secretsInForce", () => {
  const rotated = { current: "new", previous: "old", previousUntil: 1_000 + ROTATION_OVERLAP_MS };
  test("the previous secret signs until its overlap ends, then only the new one", () => {
    expect(secretsInForce(rotated, 1_000)).toEqual(["new", "old"]);
    expect(secretsInForce(rotated, 1_000 + ROTATION_OVERLAP_MS - 1)).toEqual(["new", "old"]);
    expect(secretsInForce(rotated, 1_000 + ROTATION_OVERLAP_MS)).toEqual(["new"]);
    expect(secretsInForce({ current: "only", previous: null, previousUntil: null }, 0)).toEqual(["only"]);
  });
});
