/**
 * What the media upstream mocks share: a loopback server that checks the bearer key, records
 * every request, and answers the next requests of a path with scripted faults (a status with the
 * API's error body and headers, or no answer at all) before its own route answers.
 */
import type { Server } from "bun";

export type MediaFault = { status: number; message?: string; headers?: Record<string, string>; body?: unknown } | { hang: true };

export type MockBase = {
  url: string;
  /** every request that passed the key check, in order: "METHOD /path" */
  calls: string[];
  /** the next `times` requests to `path` meet `fault` */
  fail(path: string, fault: MediaFault, times?: number): void;
  stop(): void;
};

type Route = (request: Request, path: string) => Response | Promise<Response>;

/** `errorBody`: the API's own error shape for a message */
export function startMockBase(key: string, route: Route, errorBody: (message: string) => unknown, prefix = ""): MockBase {
  const calls: string[] = [];
  const faults: Array<{ path: string; fault: MediaFault; times: number }> = [];
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    // a 20 MB upload is a test of its own
    maxRequestBodySize: 512 * 1024 * 1024,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      // /files/ stands for signed download URLs: no key goes there
      if (!path.startsWith("/files/") && request.headers.get("authorization") !== `Bearer ${key}`)
        return Response.json(errorBody("Incorrect API key provided"), { status: 401 });
      calls.push(`${request.method} ${path}`);
      const i = faults.findIndex((f) => f.path === path);
      if (i >= 0) {
        const entry = faults[i]!;
        if (--entry.times <= 0) faults.splice(i, 1);
        const { fault } = entry;
        // drain the body, as a server that answers after reading would
        await request.arrayBuffer().catch(() => undefined);
        if ("hang" in fault) return new Promise<Response>(() => {});
        return Response.json(fault.body ?? errorBody(fault.message ?? `failed with ${fault.status}`), { status: fault.status, headers: fault.headers });
      }
      return route(request, path);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}${prefix}`,
    calls,
    fail: (path, fault, times = 1) => faults.push({ path: `${prefix}${path}`, fault, times }),
    stop: () => void server.stop(true),
  };
}

/** OpenAI's error body */
export const openaiError = (message: string) => ({ error: { message, type: "invalid_request_error", param: null, code: null } });

/** Deterministic bytes: `n` of them, seeded so two outputs differ. */
export function patternBytes(n: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i++) bytes[i] = (i * 31 + seed * 17 + 7) % 251;
  return bytes;
}
