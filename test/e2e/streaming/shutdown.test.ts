import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { ADMIN_KEY, tempDir } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";

let up: MockUpstream;
beforeAll(async () => {
  up = await startMockUpstream();
});
afterAll(() => up.stop());

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  await s.stop(true);
  return port;
}

async function startProcess(dir: string, port: number) {
  const yaml = join(dir, "gateway.yaml");
  await Bun.write(
    yaml,
    `providers:\n  - { slug: m, api: openai-chat, base_url: "${up.url}", api_key: k }\nmodels:\n  - id: t/slow\n    endpoints: [{ provider: m, model: slow, pricing: { prompt: "0.000001", completion: "0.000002" } }]\n`,
  );
  const proc = Bun.spawn(["bun", "src/main.ts", "serve"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${join(dir, "g.db")}`,
      GATEWAY_ADMIN_KEY: ADMIN_KEY,
      GATEWAY_CONFIG: yaml,
      LOG_LEVEL: "error",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/ready`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      return proc;
    await Bun.sleep(50);
  }
  throw new Error("gateway did not start");
}

test("SIGTERM lets a stream in flight finish and its generation is recorded", async () => {
  const dir = tempDir();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/api/v1`;
  let proc = await startProcess(dir, port);
  const created = (await (
    await fetch(`${base}/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "k" }),
    })
  ).json()) as any;
  up.enqueue({ text: ["one ", "two ", "three"], chunkDelayMs: 300, usage: { input: 5, output: 3 } });
  const res = await fetch(`${base}/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${created.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "t/slow", stream: true, messages: [{ role: "user", content: "count" }] }),
  });
  const id = res.headers.get("x-generation-id")!;
  proc.kill("SIGTERM");
  const text = await res.text();
  expect(text).toContain('"content":"three"');
  expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
  expect(await proc.exited).toBe(0);

  proc = await startProcess(dir, port);
  try {
    const gen = (await (await fetch(`${base}/generation?id=${id}`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).json()) as any;
    expect(gen.data).toMatchObject({ id, finish_reason: "stop", tokens_prompt: 5, tokens_completion: 3, cancelled: false });
    expect(gen.data.total_cost).toBeCloseTo(5 * 0.000001 + 3 * 0.000002, 12);
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
}, 20_000);
