import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type GatewayAndUpstream, startGatewayAndUpstream } from "../../support/gateway-and-upstream";
import { sseJson } from "../../support/sse";

let h: GatewayAndUpstream;

beforeAll(async () => {
  // Bun's idle timeout at 1 s: anything longer must survive only because the gateway disables it per request
  h = await startGatewayAndUpstream({
    idleTimeoutSeconds: 1,
    yaml: (url) =>
      `providers:\n  - { slug: m, api: openai-chat, base_url: "${url}", api_key: k }\nmodels:\n  - id: t/slow\n    endpoints: [{ provider: m, model: slow }]\n`,
  });
});
afterAll(() => h.close());

const post = (body: Record<string, unknown>) =>
  fetch(`${h.gw.url}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${h.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "t/slow", messages: [{ role: "user", content: "hi" }], ...body }),
  });

describe("long requests", () => {
  test("a non-streaming answer slower than the idle timeout arrives", async () => {
    h.up.enqueue({ text: "late", delayMs: 2500 });
    const res = await post({});
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).choices[0].message.content).toBe("late");
  }, 10_000);

  test("a stream with gaps longer than the idle timeout is not cut", async () => {
    h.up.enqueue({ text: ["a", "b", "c"], chunkDelayMs: 1100 });
    const res = await post({ stream: true });
    const text = await res.text();
    const content = sseJson(text)
      .map((chunk) => chunk.choices[0]?.delta?.content ?? "")
      .join("");
    expect(content).toBe("abc");
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
  }, 15_000);

  test("while the upstream is silent before its first event, keep-alive comments flow and the 200 is sent", async () => {
    h.up.enqueue({ text: ["x"], delayMs: 3000 });
    const started = Date.now();
    const res = await post({ stream: true });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2900);
    const text = await res.text();
    expect(text.startsWith(": PROCESSING\n\n")).toBe(true);
    expect(text).toContain('"content":"x"');
  }, 10_000);

  test("an upstream failing at once gives an ordinary HTTP error, not a 200 stream", async () => {
    h.up.enqueue({ status: 500 });
    const res = await post({ stream: true });
    expect(res.status).toBe(502);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("x-generation-id")).toMatch(/^gen-/);
  });
});
