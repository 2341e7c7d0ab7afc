// A real browser on another origin calls the API and reads a streamed answer: CORS as browsers
// enforce it, not as a test assumes it. Needs Chromium (.ci/run installs Debian's `chromium`);
// without one the test is skipped, so `bun test` still runs on a machine that has none.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { gatewayYaml, MODEL } from "../inference/harness";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find(existsSync);

const PAGE = `<!doctype html><meta charset="utf-8"><title>client</title><pre id="out"></pre>
<script>
async function ask(url, key, model) {
  const res = await fetch(url + "/api/v1/chat/completions", {
    method: "POST",
    headers: { "Authorization": "Bearer " + key, "Content-Type": "application/json", "X-Session-Id": "browser-1" },
    body: JSON.stringify({ model, stream: true, messages: [{ role: "user", content: "hi" }] }),
  });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = "", buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (;;) {
      const end = buffer.indexOf("\\n\\n");
      if (end < 0) break;
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event.split("\\n").find((l) => l.startsWith("data: "))?.slice(6);
      if (!data || data === "[DONE]") continue;
      text += JSON.parse(data).choices[0]?.delta?.content ?? "";
    }
  }
  return { status: res.status, generation: res.headers.get("x-generation-id"), text };
}
</script>`;

let up: MockUpstream;
let gw: TestGateway;
let site: ReturnType<typeof Bun.serve>;
let browser: Browser;
let key: string;

beforeAll(async () => {
  if (!CHROMIUM) return;
  up = await startMockUpstream();
  gw = await startTestGateway({ yaml: gatewayYaml(up.url) });
  key = (await createInferenceKey(gw)).key;
  site = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(PAGE, { headers: { "content-type": "text/html" } }) });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
  // a cold Chromium (first launch after install, a busy machine) takes longer than bun's 5 s hook limit
}, 60_000);
afterAll(async () => {
  if (!CHROMIUM) return;
  await browser?.close();
  site.stop(true);
  await gw.close();
  await up.stop();
});

test.skipIf(!CHROMIUM)(
  "a page on another origin streams a chat answer and reads X-Generation-Id",
  async () => {
    up.enqueue({ text: ["Hel", "lo ", "browser"], usage: { input: 3, output: 3 } });
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${site.port}/`);
    const answer = await page.evaluate(([url, k, model]) => (globalThis as any).ask(url, k, model), [gw.url, key, MODEL["openai-chat"]] as const);
    expect(answer).toEqual({ status: 200, generation: expect.stringMatching(/^gen-/), text: "Hello browser" });
    // the request went through the preflight (a JSON body, Authorization and X-Session-Id all need one)
    expect(up.requests.at(-1)!.body.messages).toEqual([{ role: "user", content: "hi" }]);
    await page.close();
  },
  30_000,
);

test.skipIf(!CHROMIUM)(
  "an origin the gateway does not allow cannot read the answer",
  async () => {
    const strict = await startTestGateway({ yaml: `${gatewayYaml(up.url)}server:\n  cors_origins: ["https://app.example"]\n` });
    try {
      const strictKey = (await createInferenceKey(strict)).key;
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${site.port}/`);
      const failure = await page.evaluate(
        ([url, k, model]) =>
          (globalThis as any).ask(url, k, model).then(
            () => "read",
            (e: Error) => e.name,
          ),
        [strict.url, strictKey, MODEL["openai-chat"]] as const,
      );
      expect(failure).toBe("TypeError");
      await page.close();
    } finally {
      await strict.close();
    }
  },
  30_000,
);
