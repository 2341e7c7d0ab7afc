// The mock's HTTP server: records each request, takes the next queued turn (or
// asks the handler) and hands both to respond().
import type { MockTurn, MockUpstream, RecordedRequest } from "./types.ts";
import { DEFAULT_USAGE } from "./turn-parts.ts";
import { formatForPath } from "./formats.ts";
import { respond } from "./respond.ts";
import { googleAuth } from "./google-auth.ts";

export const DEFAULT_TEXT = "Hello from mock";

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
      const rec: RecordedRequest = {
        path: url.pathname + url.search,
        method: req.method,
        headers: Object.fromEntries(req.headers.entries()),
        body: parseBody(await req.text()),
        receivedAt: Date.now(),
      };
      requests.push(rec);
      // Vertex AI's paths take the access tokens the token endpoint handed out, and no other
      const refused = url.pathname.startsWith("/v1/projects/") ? google!.refuse(req.headers.get("authorization")) : undefined;
      if (refused) {
        rec.closedAt = Date.now();
        return refused;
      }
      req.signal.addEventListener("abort", () => {
        if (rec.closedAt === undefined && rec.abortedAt === undefined) rec.abortedAt = Date.now();
      });
      const turn = queue.shift() ?? handler(rec);
      return respond(formatForPath(url.pathname), turn, { rec, signal: req.signal, seq: ++seq, stopped });
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
