// What an operator sees: one access-log line per request, warn lines for failed upstream calls
// and for a circuit that opens, and the same story in /metrics.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLogger } from "../../src/logger";
import { ADMIN_KEY } from "../support/gateway";
import { type GatewayAndUpstream, startGatewayAndUpstream } from "../support/gateway-and-upstream";

const TOKEN = "metrics-token-0123456789";
let h: GatewayAndUpstream;
const lines: Array<Record<string, any>> = [];

beforeAll(async () => {
  h = await startGatewayAndUpstream({
    logger: createLogger("info", (line) => lines.push(JSON.parse(line))),
    yaml: (url) => `
routing: { circuit_failures: 2, circuit_cooldown_ms: 60000 }
metrics: { token: "${TOKEN}" }
providers:
  - { slug: pa, api: openai-chat, base_url: "${url}", api_key: k }
  - { slug: pb, api: openai-chat, base_url: "${url}", api_key: k }
models:
  - id: t/fb
    endpoints:
      - { provider: pa, model: up-a, pricing: { prompt: "0.000001", completion: "0.000002" } }
      - { provider: pb, model: up-b, pricing: { prompt: "0.000001", completion: "0.000002" } }
`,
  });
  h.up.setHandler((req) => (req.body.model === "up-a" ? { status: 500 } : { text: "ok", usage: { input: 10, output: 4 } }));
});
afterAll(() => h.close());

const chat = () =>
  h.gw.api("/api/v1/chat/completions", {
    method: "POST",
    key: h.key,
    json: { model: "t/fb", provider: { order: ["pa", "pb"] }, messages: [{ role: "user", content: "hi" }] },
  });

test("a scripted sequence: fallbacks, a circuit opening, other routes; every line and every figure", async () => {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await chat();
    expect(res.status).toBe(200);
    ids.push(res.headers.get("x-generation-id")!);
  }
  expect((await h.gw.api("/api/v1/models")).status).toBe(200);
  expect((await h.gw.api("/api/v1/keys", { key: "sk-gw-v1-nope" })).status).toBe(401);
  await h.gw.ctx.generations.settled();
  await Bun.sleep(20);

  const requests = lines.filter((l) => l.msg === "request");
  const generations = requests.filter((l) => l.route === "/api/v1/chat/completions");
  expect(generations.map((l) => [l.generation_id, l.status, l.model, l.provider, l.attempts, l.tokens_prompt, l.tokens_completion, l.cost])).toEqual(
    ids.map((id, i) => [id, 200, "t/fb", "pb", i < 2 ? 2 : 1, 10, 4, 0.000018]),
  );
  for (const l of generations) {
    expect(l.level).toBe("info");
    expect(l.method).toBe("POST");
    expect(l.key).toMatch(/^[0-9a-f]{12}$/);
    expect(l.duration_ms).toBeGreaterThanOrEqual(0);
  }
  expect(requests.find((l) => l.route === "/api/v1/models")).toMatchObject({ method: "GET", status: 200 });
  // the key's creation (management key) and the refused call (no key known)
  expect(requests.find((l) => l.route === "/api/v1/keys" && l.method === "POST")).toMatchObject({ status: 201, key: expect.stringMatching(/^[0-9a-f]{12}$/) });
  expect(requests.find((l) => l.route === "/api/v1/keys" && l.method === "GET")).toMatchObject({ status: 401 });
  expect(requests.find((l) => l.route === "/api/v1/keys" && l.method === "GET")!.key).toBeUndefined();

  const warns = lines.filter((l) => l.level === "warn");
  expect(warns.map((l) => [l.msg, l.endpoint, l.status ?? null, l.retryable ?? null])).toEqual([
    ["upstream failed", "pa/up-a", 500, true],
    ["upstream failed", "pa/up-a", 500, true],
    ["circuit opened: the endpoint is tried last until it recovers", "pa/up-a", null, null],
  ]);
  expect(warns[0]).toMatchObject({ provider: "pa", model: "t/fb", error: expect.any(String) });

  const metrics = await (await fetch(`${h.gw.url}/metrics`)).text();
  const sample = (line: string) => expect(metrics.split("\n")).toContain(line);
  sample('gateway_requests_total{route="/api/v1/chat/completions",method="POST",status="200",model="t/fb"} 3');
  sample('gateway_requests_total{route="/api/v1/keys",method="GET",status="401",model=""} 1');
  sample('gateway_upstream_attempts_total{provider="pa",endpoint="pa/up-a",status="500"} 2');
  sample('gateway_upstream_attempts_total{provider="pb",endpoint="pb/up-b",status="200"} 3');
  sample('gateway_upstream_failures_total{provider="pa",endpoint="pa/up-a"} 2');
  sample('gateway_circuit_open{provider="pa",endpoint="pa/up-a"} 1');
  sample('gateway_tokens_total{model="t/fb",provider="pb",kind="prompt"} 30');
  sample('gateway_tokens_total{model="t/fb",provider="pb",kind="completion"} 12');
  sample('gateway_cost_usd_total{model="t/fb",provider="pb"} 0.000054');
  sample("gateway_reservations_held 0");
  sample("gateway_database_up 1");
});

test("/metrics: open on loopback; through a proxy or from elsewhere only with the token", async () => {
  expect((await fetch(`${h.gw.url}/metrics`)).status).toBe(200);
  const proxied = await fetch(`${h.gw.url}/metrics`, { headers: { "x-forwarded-for": "203.0.113.9" } });
  expect(proxied.status).toBe(403);
  expect(((await proxied.json()) as any).error.message).toBe("Metrics need the bearer token set as metrics.token (GATEWAY_METRICS_TOKEN)");
  const withToken = await fetch(`${h.gw.url}/metrics`, { headers: { "x-forwarded-for": "203.0.113.9", authorization: `Bearer ${TOKEN}` } });
  expect(withToken.status).toBe(200);
  expect(withToken.headers.get("content-type")).toStartWith("text/plain");
  expect((await fetch(`${h.gw.url}/metrics`, { headers: { "x-forwarded-for": "203.0.113.9", authorization: "Bearer wrong-token-0123456789" } })).status).toBe(
    403,
  );
});

test("a request refused before its generation starts still names one: in its header and in its access-log line", async () => {
  const refused = [
    await h.gw.api("/api/v1/chat/completions", { method: "POST", key: "sk-gw-v1-nope", json: { model: "t/fb", messages: [{ role: "user", content: "hi" }] } }),
    await h.gw.api("/api/v1/chat/completions", { method: "POST", key: h.key, json: { model: "t/fb", messages: [{ role: "wizard", content: "hi" }] } }),
  ];
  expect(refused.map((res) => res.status)).toEqual([401, 400]);
  const ids = refused.map((res) => res.headers.get("x-generation-id"));
  for (const id of ids) expect(id).toMatch(/^gen-/);
  await Bun.sleep(20);
  const logged = lines.filter((l) => l.msg === "request" && ids.includes(l.generation_id));
  expect(logged.map((l) => [l.generation_id, l.status])).toEqual([
    [ids[0], 401],
    [ids[1], 400],
  ]);
});

const ADMIN_KEY_PREFIX = new Bun.CryptoHasher("sha256").update(ADMIN_KEY).digest("hex").slice(0, 12);
const newRequestLines = (before: number) => lines.slice(before).filter((l) => l.msg === "request");

test("an access-log line counts from the request's arrival: a body that takes 300 ms to come shows in duration_ms", async () => {
  const before = lines.length;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      await Bun.sleep(300);
      controller.enqueue(new TextEncoder().encode(JSON.stringify({ name: "slow body" })));
      controller.close();
    },
  });
  const res = await fetch(`${h.gw.url}/api/v1/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" },
    body,
    duplex: "half",
  } as RequestInit);
  expect(res.status).toBe(201);
  await Bun.sleep(20);
  const [line, ...others] = newRequestLines(before);
  expect(others).toEqual([]);
  expect(line).toMatchObject({ route: "/api/v1/keys", method: "POST", status: 201, key: ADMIN_KEY_PREFIX });
  expect(line!.duration_ms).toBeGreaterThanOrEqual(290);
});

test("a caller admitted before its body fails validation is named in the access-log line", async () => {
  const before = lines.length;
  const res = await h.gw.api("/api/v1/keys", { method: "POST", json: { name: 5 } });
  expect(res.status).toBe(400);
  await Bun.sleep(20);
  expect(newRequestLines(before).map((l) => [l.route, l.status, l.key])).toEqual([["/api/v1/keys", 400, ADMIN_KEY_PREFIX]]);
});
