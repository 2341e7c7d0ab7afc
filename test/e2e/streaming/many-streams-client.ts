/**
 * Opens N streaming chat requests at once and reads each to its end; prints one JSON line.
 * Its own process, started with BUN_CONFIG_MAX_HTTP_REQUESTS above N: the test runner's fetch
 * would otherwise queue all but 256 of them itself.
 */
import { sseJson } from "../../support/sse";

const [url, key, count] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4])];

async function one(i: number): Promise<{ status: number; done: boolean; text: string }> {
  const res = await fetch(`${url}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "t/slow", stream: true, messages: [{ role: "user", content: `stream ${i}` }] }),
  });
  const body = await res.text();
  const text = sseJson(body)
    .map((chunk: { choices: { delta: { content?: string } }[] }) => chunk.choices[0]?.delta.content ?? "")
    .join("");
  return { status: res.status, done: body.trimEnd().endsWith("data: [DONE]"), text };
}

const results = await Promise.all(Array.from({ length: count }, (_, i) => one(i)));
console.log(
  JSON.stringify({
    ok: results.filter((r) => r.status === 200 && r.done && r.text === "held released").length,
    statuses: [...new Set(results.map((r) => r.status))],
  }),
);
