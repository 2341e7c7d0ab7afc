/**
 * A loopback HTTP receiver that records every request (method, path, query, headers, raw body)
 * and answers from a script: scripted answers in order, then the default. An answer is a
 * Response, or "drop" to close the connection without one. Generic on purpose: any destination
 * format (native or OTLP) can be tested against it.
 */

export type RecordedRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  /** lower-cased names */
  headers: Record<string, string>;
  body: string;
  /** the body parsed as JSON (undefined when it is not JSON) */
  json: unknown;
};

export type RecorderAnswer = Response | "drop" | ((request: RecordedRequest) => Response | "drop");

export type NativeRecorder = {
  /** http://127.0.0.1:<port> */
  url: string;
  requests: RecordedRequest[];
  /** answers for the next requests, in order; the default answers once they are used up */
  enqueue(...answers: RecorderAnswer[]): void;
  /** the answer when nothing is queued (initially an empty 200) */
  setDefault(answer: RecorderAnswer): void;
  /** forgets requests and queued answers */
  reset(): void;
  /** every recorded byte (paths, queries, headers, bodies), for "appears nowhere" assertions */
  everything(): string;
  stop(): void;
};

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * A body that fails before its first byte: Bun resets the connection with no answer sent.
 * (An `undefined` reason keeps Bun from logging the failure as an error.)
 */
const dropped = () => new Response(new ReadableStream({ pull: (controller) => controller.error(undefined) }));

export function startNativeRecorder(): NativeRecorder {
  const requests: RecordedRequest[] = [];
  let queue: RecorderAnswer[] = [];
  let fallback: RecorderAnswer = () => new Response(null, { status: 200 });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const body = await req.text();
      const recorded: RecordedRequest = {
        method: req.method,
        path: url.pathname,
        query: url.searchParams,
        headers: Object.fromEntries([...req.headers.entries()].map(([k, v]) => [k.toLowerCase(), v])),
        body,
        json: parseJson(body),
      };
      requests.push(recorded);
      const scripted = queue.shift() ?? fallback;
      const answer = typeof scripted === "function" ? scripted(recorded) : scripted;
      if (answer === "drop") return dropped();
      // a Response can be sent once: a queued one is used once, the default is copied each time
      if (scripted !== fallback) return answer;
      return new Response(await answer.clone().arrayBuffer(), { status: answer.status, headers: answer.headers });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    enqueue: (...answers) => void queue.push(...answers),
    setDefault: (answer) => void (fallback = answer),
    reset: () => {
      requests.length = 0;
      queue = [];
    },
    everything: () => requests.map((r) => `${r.method} ${r.path}?${r.query}\n${JSON.stringify(r.headers)}\n${r.body}`).join("\n"),
    stop: () => void server.stop(true),
  };
}

/** A JSON answer. */
export const jsonAnswer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/** An answer with no body (202, 204, a 429 with Retry-After, ...). */
export const statusAnswer = (status: number, headers: Record<string, string> = {}) => new Response(status === 204 ? null : "", { status, headers });
