// Requests refused before any generation (401, 402, 413, 429, 503): each access-log line names the
// model asked for, a short error code and the reason; each lands in the refusal log (rows and
// hourly counters) once its answer left, with the key and workspace when the caller was known. A
// validation error (400) and the console's own 401 are not refusals.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLogger } from "../../src/logger";
import { createInferenceKey } from "../support/gateway";
import { type GatewayAndUpstream, startGatewayAndUpstream } from "../support/gateway-and-upstream";

let h: GatewayAndUpstream;
const lines: Array<Record<string, unknown>> = [];
const PRICING = `{ prompt: "0.000001", completion: "0.000002" }`;

beforeAll(async () => {
  h = await startGatewayAndUpstream({
    logger: createLogger("info", (line) => lines.push(JSON.parse(line))),
    yaml: (url) => `
server: { max_body_mb: 1 }
providers:
  - { slug: pa, api: openai-chat, base_url: "${url}", api_key: k }
  - { slug: nokey, api: openai-chat, base_url: "${url}" }
models:
  - id: t/ok
    endpoints: [{ provider: pa, model: up-a, pricing: ${PRICING} }]
  - id: t/nokey
    endpoints: [{ provider: nokey, model: up-b, pricing: ${PRICING} }]
`,
  });
});
afterAll(() => h.close());

const hashOf = (raw: string) => new Bun.CryptoHasher("sha256").update(raw).digest("hex");

const chat = (key: string, model: string, extra: Record<string, unknown> = {}) =>
  h.gw.api("/api/v1/chat/completions", { method: "POST", key, json: { model, messages: [{ role: "user", content: "hi" }], ...extra } });

test("each refusal: its status, its access-log line, its row in the refusal log and its hour's counter", async () => {
  const spent = await createInferenceKey(h.gw, { name: "spent", limit: 0 });
  const limited = await createInferenceKey(h.gw, { name: "limited", rate_limit: { rpm: 1 } });
  // rpm counts per fixed UTC minute: both calls of the limited key must fall in one
  if (new Date().getUTCSeconds() >= 55) await Bun.sleep(6_000);
  h.up.enqueue({ text: "ok", usage: { input: 1, output: 1 } });
  expect((await chat(limited.key, "t/ok")).status).toBe(200);
  const statuses = [
    (await chat("sk-gw-v1-nope", "t/ok")).status,
    (await chat(spent.key, "t/ok")).status,
    (await chat(limited.key, "t/ok")).status,
    (await chat(h.key, "t/nokey")).status,
    (
      await fetch(`${h.gw.url}/api/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${h.key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "t/ok", messages: [{ role: "user", content: "x".repeat(1_100_000) }] }),
      })
    ).status,
    (await chat(h.key, "t/ok", { temperature: "hot" })).status,
    (await fetch(`${h.gw.url}/console/api/me`)).status,
  ];
  expect(statuses).toEqual([401, 402, 429, 503, 413, 400, 401]);

  await h.gw.ctx.refusals.settled();
  const logged = lines
    .filter((l) => l.msg === "request" && l.error_code !== undefined)
    .map((l) => [l.status, l.route, l.model ?? null, l.error_code, typeof l.reason === "string" && (l.reason as string).length > 0]);
  expect(logged).toEqual([
    [401, "/api/v1/chat/completions", "t/ok", "invalid_key", true],
    [402, "/api/v1/chat/completions", "t/ok", "key_limit_reached", true],
    [429, "/api/v1/chat/completions", "t/ok", "rate_limited", true],
    [503, "/api/v1/chat/completions", "t/nokey", "no_endpoint", true],
    [413, "(no route)", null, "body_too_large", true],
  ]);
  expect(lines.find((l) => l.error_code === "key_limit_reached")?.reason).toBe("This key has reached its spending limit");

  const rows = await h.gw.ctx.store.refusals.list({}, null, 10);
  const workspace = (await h.gw.ctx.store.workspaces.getDefault())!.id;
  // newest first; requests of the same millisecond by id
  expect(rows.map((r) => [r.status, r.errorCode, r.model, r.keyHash, r.workspaceId]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
    [401, "invalid_key", "t/ok", null, null],
    [402, "key_limit_reached", "t/ok", spent.hash, workspace],
    [413, "body_too_large", null, null, null],
    [429, "rate_limited", "t/ok", limited.hash, workspace],
    [503, "no_endpoint", "t/nokey", hashOf(h.key), workspace],
  ]);
  for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.createdAt).toBeGreaterThanOrEqual(rows[i]!.createdAt);
  // the refused inference requests name their generation id, the other rows get one of their own
  expect(rows.every((r) => r.id.length > 0)).toBe(true);
  const hour = Date.now() - (Date.now() % 3_600_000);
  const counts = await h.gw.ctx.store.refusals.counts({ fromHour: hour - 3_600_000, toHour: hour + 3_600_000 });
  expect(
    counts
      .map((c) => [c.status, c.keyHash === spent.hash ? "spent" : c.keyHash === limited.hash ? "limited" : c.keyHash === "" ? "" : "other", c.requests])
      .sort(),
  ).toEqual(
    [
      [401, "", 1],
      [402, "spent", 1],
      [413, "", 1],
      [429, "limited", 1],
      [503, "other", 1],
    ].sort(),
  );
});
