/**
 * The loopback server under each video upstream mock: records every request, injects faults
 * (status with body/headers, delay, hang) on requests matching `METHOD /path`, and serves output
 * files at URLs that stop working after their lifetime, like the upstreams' signed URLs.
 */
import type { Server } from "bun";

export type ReceivedRequest = { method: string; path: string; search: string; headers: Record<string, string>; body: unknown };

export type Fault = { status: number; body?: unknown; headers?: Record<string, string> } | { delayMs: number } | { hang: true };

type Route = (request: Request, received: ReceivedRequest) => Response | Promise<Response>;

export type MockServer = {
  url: string;
  requests: ReceivedRequest[];
  /** the next request matching `pattern` (tested against "METHOD /path") meets `fault`, `times` times */
  fail(pattern: RegExp, fault: Fault, times?: number): void;
  /** a URL serving `bytes` for `ttlMs`, then 403 (expired signature) */
  serveFile(bytes: Uint8Array, contentType: string, ttlMs?: number): string;
  stop(): void;
};

export function startMockServer(route: Route): MockServer {
  const requests: ReceivedRequest[] = [];
  const faults: Array<{ pattern: RegExp; fault: Fault; times: number }> = [];
  const files = new Map<string, { bytes: Uint8Array; contentType: string; expiresAt: number }>();
  let server: Server<undefined> | undefined;

  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const text = await request.text();
      const received: ReceivedRequest = {
        method: request.method,
        path: url.pathname,
        search: url.search,
        headers: Object.fromEntries(request.headers),
        body: text === "" ? undefined : safeJson(text),
      };
      requests.push(received);
      if (url.pathname.startsWith("/files/")) {
        const file = files.get(url.pathname);
        if (!file) return new Response("<Error><Code>NoSuchKey</Code></Error>", { status: 404 });
        if (Date.now() > file.expiresAt) return new Response("<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>", { status: 403 });
        return new Response(file.bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": file.contentType } });
      }
      const index = faults.findIndex((f) => f.pattern.test(`${request.method} ${url.pathname}`));
      if (index >= 0) {
        const entry = faults[index]!;
        if (--entry.times <= 0) faults.splice(index, 1);
        const { fault } = entry;
        if ("hang" in fault) return new Promise<Response>(() => {});
        if ("delayMs" in fault) await Bun.sleep(fault.delayMs);
        else return Response.json(fault.body ?? {}, { status: fault.status, headers: fault.headers });
      }
      return route(request, received);
    },
  });

  const base = `http://127.0.0.1:${server.port}`;
  return {
    url: base,
    requests,
    fail: (pattern, fault, times = 1) => faults.push({ pattern, fault, times }),
    serveFile(bytes, contentType, ttlMs = 60_000) {
      const path = `/files/${crypto.randomUUID()}`;
      files.set(path, { bytes, contentType, expiresAt: Date.now() + ttlMs });
      return `${base}${path}?X-Expires=${Math.floor((Date.now() + ttlMs) / 1000)}`;
    },
    stop: () => server?.stop(true),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const VIDEO_BYTES = new TextEncoder().encode("\x00\x00\x00\x18ftypmp42mock-video-bytes");
