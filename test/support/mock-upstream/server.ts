// The mock's HTTP server: records each request, takes the next queued turn (or
// asks the handler) and hands both to respond().

import { formatForPath } from "./formats.ts";
import { googleAuth } from "./google-auth.ts";
import { respond } from "./respond.ts";
import { DEFAULT_USAGE } from "./turn-parts.ts";
import type { MockTurn, MockUpstream, RecordedRequest } from "./types.ts";

export const DEFAULT_TEXT = "Hello from mock";

/** A 1x1 PNG the mock serves at GET <url>/images/pixel.png, for clients whose upstream takes images inline. */
export const PIXEL_PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const defaultHandler = (): MockTurn => ({ text: DEFAULT_TEXT, usage: { ...DEFAULT_USAGE } });

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function startMockUpstream(opts: { port?: number } = {}): Promise<MockUpstream> {
  const queue: MockTurn[] = [];
  const requests: RecordedRequest[] = [];
  let handler: (req: RecordedRequest) => MockTurn = defaultHandler;
  let seq = 0;
  let markStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (markStopped = resolve));

  // the token endpoint's URL needs the port: it is set once the server listens
  let google: ReturnType<typeof googleAuth> | undefined;
  const server = Bun.serve({
    port: opts.port ?? 0,
    hostname: "127.0.0.1",
    // Slow streams and hanging requests must never be cut by Bun's idle timer.
    idleTimeout: 0,
    async fetch(req, srv) {
      srv.timeout(req, 0);
      const url = new URL(req.url);
      if (url.pathname === "/token" && req.method === "POST") return google!.token(req);
      const bytes = new Uint8Array(await req.arrayBuffer());
      const rec: RecordedRequest = {
        path: url.pathname + url.search,
        method: req.method,
        headers: Object.fromEntries(req.headers.entries()),
        body: parseBody(new TextDecoder().decode(bytes)),
        receivedAt: Date.now(),
      };
      requests.push(rec);
      if (req.method === "GET" && url.pathname.endsWith("/images/pixel.png")) {
        rec.closedAt = Date.now();
        return new Response(Buffer.from(PIXEL_PNG_BASE64, "base64"), { headers: { "content-type": "image/png" } });
      }
      const format = formatForPath(url.pathname);
      // a refused credential takes no turn: the next candidate's call gets it. Bedrock checks each
      // call's signature or key; Vertex AI's paths take the access tokens the token endpoint handed out, and no other
      const refusal =
        (await format?.authorize?.(req, url.pathname, bytes)) ??
        (url.pathname.startsWith("/v1/projects/") ? google!.refuse(req.headers.get("authorization")) : undefined);
      if (refusal) {
        rec.closedAt = Date.now();
        return refusal;
      }
      req.signal.addEventListener("abort", () => {
        if (rec.closedAt === undefined && rec.abortedAt === undefined) rec.abortedAt = Date.now();
      });
      // a request the API itself refuses never reaches a model: it takes no turn
      const refused = format?.refuse?.(rec);
      if (refused) {
        rec.closedAt = Date.now();
        return Response.json(refused.body, { status: refused.status });
      }
      const turn = queue.shift() ?? handler(rec);
      return respond(format, turn, { rec, signal: req.signal, seq: ++seq, stopped });
    },
  });

  const url = `http://127.0.0.1:${server.port}/v1`;
  google = googleAuth(`http://127.0.0.1:${server.port}`);
  return {
    url,
    port: server.port!,
    google,
    requests,
    enqueue: (...turns) => void queue.push(...turns),
    setHandler: (fn) => void (handler = fn),
    reset() {
      google!.reset();
      queue.length = 0;
      requests.length = 0;
      handler = defaultHandler;
      seq = 0;
    },
    async waitForRequests(n, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const last = requests[n - 1];
        if (last && (last.closedAt !== undefined || last.abortedAt !== undefined)) return requests;
        if (Date.now() > deadline) {
          throw new Error(`mock upstream: expected ${n} finished requests, have ${requests.length}`);
        }
        await Bun.sleep(5);
      }
    },
    async stop() {
      markStopped();
      await server.stop(true);
    },
  };
}
