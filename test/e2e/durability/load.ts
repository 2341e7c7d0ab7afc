/**
 * Load for crash tests: workers send a mix of JSON and streaming chat requests until the
 * gateway goes away, and remember the generation id of every answer they received in full
 * (the JSON body, or a stream through its last event). Those are the acknowledged answers.
 */
export type LoadResult = { completed: string[]; failed: number };

export function provider(upstreamUrl: string): string {
  return `providers:
  - { slug: m, api: openai-chat, base_url: "${upstreamUrl}", api_key: k }
models:
  - id: t/crash
    endpoints: [{ provider: m, model: crash, pricing: { prompt: "0.000001", completion: "0.000002" } }]
`;
}

async function one(urls: string[], key: string, i: number): Promise<string | null> {
  const stream = i % 2 === 0;
  const res = await fetch(`${urls[i % urls.length]}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "t/crash", stream, max_tokens: 20, messages: [{ role: "user", content: `crash test ${i}` }] }),
  });
  const id = res.headers.get("x-generation-id");
  const text = await res.text();
  if (res.status !== 200 || !id) return null;
  if (stream) return text.trimEnd().endsWith("data: [DONE]") ? id : null;
  return (JSON.parse(text) as { choices?: unknown[] }).choices?.length ? id : null;
}

/** Runs `workers` closed loops against `urls` (round robin) until `stop()` resolves, then lets the loops end. */
export async function runLoad(urls: string[], key: string, workers: number, stop: Promise<void>): Promise<LoadResult> {
  const completed: string[] = [];
  let failed = 0;
  let stopped = false;
  void stop.then(() => (stopped = true));
  let n = 0;
  const loop = async () => {
    while (!stopped) {
      try {
        const id = await one(urls, key, n++);
        if (id) completed.push(id);
        else failed++;
      } catch {
        failed++;
        // the instance is gone; a survivor (when there is one) keeps serving
        await Bun.sleep(5);
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, loop));
  return { completed, failed };
}
