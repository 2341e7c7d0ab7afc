// Each event of a streamed answer reaches the client when the upstream sends it, not when the
// answer ends: the client reads every content chunk at about the time the upstream wrote it,
// for a same-format upstream (chunks relayed) and a translated one (chunks re-encoded).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type GatewayAndUpstream, startGatewayAndUpstream } from "../../support/gateway-and-upstream";

let h: GatewayAndUpstream;
const GAP_MS = 400;

beforeAll(async () => {
  h = await startGatewayAndUpstream({
    yaml: (url) =>
      "providers:\n" +
      `  - { slug: m, api: openai-chat, base_url: "${url}", api_key: k }\n` +
      `  - { slug: a, api: anthropic-messages, base_url: "${url}", api_key: k }\n` +
      "models:\n" +
      "  - id: t/chat\n    endpoints: [{ provider: m, model: chat }]\n" +
      "  - id: t/claude\n    endpoints: [{ provider: a, model: claude }]\n",
  });
});
afterAll(() => h.close());

/** [content, ms since the response's headers] of each content delta, as the client reads them */
async function timedDeltas(model: string): Promise<Array<[string, number]>> {
  const res = await fetch(`${h.gw.url}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${h.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model, stream: true, messages: [{ role: "user", content: "hi" }] }),
  });
  expect(res.status).toBe(200);
  const started = performance.now();
  const deltas: Array<[string, number]> = [];
  const decoder = new TextDecoder();
  let pending = "";
  for await (const bytes of res.body!) {
    pending += decoder.decode(bytes, { stream: true });
    const events = pending.split("\n\n");
    pending = events.pop()!;
    for (const event of events) {
      const data = event
        .split("\n")
        .find((line) => line.startsWith("data: "))
        ?.slice(6);
      if (!data || data === "[DONE]") continue;
      const content = JSON.parse(data).choices?.[0]?.delta?.content;
      if (content) deltas.push([content, performance.now() - started]);
    }
  }
  return deltas;
}

for (const model of ["t/chat", "t/claude"]) {
  test(`${model}: each chunk arrives as the upstream sends it, ${GAP_MS} ms apart`, async () => {
    h.up.enqueue({ text: ["one ", "two ", "three"], chunkDelayMs: GAP_MS });
    const deltas = await timedDeltas(model);
    expect(deltas.map(([content]) => content)).toEqual(["one ", "two ", "three"]);
    const [[, first], [, second], [, third]] = deltas as [[string, number], [string, number], [string, number]];
    // held back until the end, all three would arrive within a few ms of each other
    expect(second - first).toBeGreaterThan(GAP_MS * 0.6);
    expect(third - second).toBeGreaterThan(GAP_MS * 0.6);
  }, 15_000);
}
