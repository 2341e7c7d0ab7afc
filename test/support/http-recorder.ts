/**
 * A loopback HTTP receiver for outbound integrations (observability destinations, webhooks):
 * records every request as it arrived (method, path, query, lower-cased headers, raw body) and
 * answers from a script, then with its default answer. Generic on purpose: any sender's tests
 * assert on what reached the wire, and script the receiver's failures.
 */
import { resetStream } from "./mock-upstream/sse-stream";

export type RecordedRequest = {
  method: string;
  path: string;
  /** the query string without `?` ("" when none) */
  query: string;
  /** lower-cased names */
  headers: Record<string, string>;
  /** the body exactly as received */
  body: string;
  receivedAt: number;
};

/**
 * One scripted answer. `drop`: the socket closes without a response byte (the sender sees a
 * dropped connection). `json` is sent as application/json.
 */
export type ScriptedAnswer = { status: number; json?: unknown; text?: string; headers?: Record<string, string>; delayMs?: number } | "drop";

export type HttpRecorder = {
  /** http://127.0.0.1:<port> */
  url: string;
  requests: RecordedRequest[];
  /** answers the next requests with these, in order; the default answer after them */
  script(...answers: ScriptedAnswer[]): void;
  /** the answer once the script is spent (200 `{}` at first) */
  answerByDefault(answer: ScriptedAnswer): void;
  /** the body of the n-th request as JSON */
  json(n?: number): any;
  /** resolves once `count` requests were recorded */
  waitFor(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** forgets the requests and the script */
  reset(): void;
  stop(): Promise<void>;
};

function respond(answer: ScriptedAnswer): Response {
  if (answer === "drop") return new Response(resetStream());
  const headers = new Headers(answer.headers);
  if (answer.json !== undefined) {
    headers.set("content-type", "application/json");
    return new Response(JSON.stringify(answer.json), { status: answer.status, headers });
  }
  return new Response(answer.text ?? null, { status: answer.status, headers });
}

export function startHttpRecorder(): HttpRecorder {
  const requests: RecordedRequest[] = [];
  let script: ScriptedAnswer[] = [];
  let fallback: ScriptedAnswer = { status: 200, json: {} };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const headers: Record<string, string> = {};
      req.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
      requests.push({ method: req.method, path: url.pathname, query: url.search.replace(/^\?/, ""), headers, body: await req.text(), receivedAt: Date.now() });
      const answer = script.shift() ?? fallback;
      if (answer !== "drop" && answer.delayMs) await Bun.sleep(answer.delayMs);
      return respond(answer);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    script: (...answers) => void script.push(...answers),
    answerByDefault: (answer) => void (fallback = answer),
    json: (n = requests.length - 1) => JSON.parse(requests[n]!.body),
    async waitFor(count, timeoutMs = 5_000) {
      const until = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} requests, got ${requests.length}`);
        await Bun.sleep(5);
      }
      return requests;
    },
    reset() {
      requests.length = 0;
      script = [];
    },
    stop: () => server.stop(true),
  };
}
