import { type CheckedUrl, checkOutboundUrl, type UrlPolicy } from "./check-url";
import { probeConnect, recentlyReached } from "./connect-probe";
import { readAtMost } from "./read-at-most";

/** the default probe, shared by every outbound request of this thread */
const reachable = recentlyReached(probeConnect);

/** `GET` carries no body: it fetches user-supplied media (video frame images) */
export type OutboundRequest =
  | { url: string; method: "POST" | "PUT"; headers: Record<string, string>; body: string }
  | { url: string; method: "GET"; headers: Record<string, string> };

export type OutboundOptions = UrlPolicy & {
  /** the whole attempt, resolution to the last byte read */
  totalTimeoutMs: number;
  /** the TCP connection to the checked address (probed before the request; fetch has no such limit) */
  connectTimeoutMs: number;
  maxResponseBytes: number;
  /** PEM certificates to trust besides the system's (tests' self-signed receivers) */
  trustedCa?: string;
  /** injected by tests to see the request as it leaves; the global fetch otherwise */
  fetch?: typeof fetch;
  /** injected by tests whose fetch answers for an address nothing listens on; probeConnect (remembering open addresses for 10 s) otherwise */
  probe?: typeof probeConnect;
};

/** Issue 16: resolution and connection each within 10 s, 30 s in all, at most 64 KB of an answer read. */
export const OUTBOUND_LIMITS = { lookupTimeoutMs: 10_000, connectTimeoutMs: 10_000, totalTimeoutMs: 30_000, maxResponseBytes: 64 * 1024 } as const;

export type OutboundResult =
  | { kind: "response"; status: number; headers: Headers; body: Uint8Array; truncated: boolean }
  /** the URL failed the check at send time: nothing was sent */
  | { kind: "refused"; reason: string }
  /** no answer: unresolvable host, connection error, timeout */
  | { kind: "failed"; reason: string; timedOut: boolean };

/**
 * The one HTTP client for URLs that API callers supply. It checks the URL, connects to the
 * address the check approved (the URL's host replaced by that address, with the original `Host`
 * header and TLS server name, so certificates are still checked against the name), never follows
 * a redirect, and never throws.
 */
export async function sendOutbound(request: OutboundRequest, options: OutboundOptions): Promise<OutboundResult> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new DOMException("outbound request timed out", "TimeoutError")), options.totalTimeoutMs);
  let probed: { address: string; port: number } | undefined;
  try {
    const checked = await checkOutboundUrl(request.url, options);
    if (!checked.ok)
      return checked.kind === "refused" ? { kind: "refused", reason: checked.reason } : { kind: "failed", reason: checked.reason, timedOut: false };
    if (abort.signal.aborted) return timedOut();
    const port = Number(checked.url.port) || (checked.url.protocol === "https:" ? 443 : 80);
    const reached = await (options.probe ?? reachable.probe)(checked.address.address, port, Math.min(options.connectTimeoutMs, options.totalTimeoutMs));
    if (reached !== "open")
      return { kind: "failed", reason: reached === "timeout" ? "connect timed out" : "connection refused", timedOut: reached === "timeout" };
    probed = { address: checked.address.address, port };
    const response = await (options.fetch ?? fetch)(pinnedUrl(checked), {
      method: request.method,
      headers: { ...request.headers, host: checked.url.host },
      body: request.method === "GET" ? undefined : request.body,
      redirect: "manual",
      signal: abort.signal,
      // plain HTTP reuses a connection to the address the check approved (a forwarding worker's
      // sends to one receiver: 13 % less worker CPU measured); over TLS a pooled session was
      // verified for the name of whoever opened it, so each send makes and checks its own
      keepalive: checked.url.protocol === "http:",
      decompress: false,
      tls: tlsFor(checked, options.trustedCa),
    });
    const { bytes, truncated } = await readAtMost(response.body, options.maxResponseBytes);
    return { kind: "response", status: response.status, headers: response.headers, body: bytes, truncated };
  } catch (error) {
    // no answer from an address taken as reachable: probe it again next time
    if (probed) reachable.forget(probed.address, probed.port);
    if (abort.signal.aborted) return timedOut();
    return { kind: "failed", reason: error instanceof Error ? error.message : String(error), timedOut: false };
  } finally {
    clearTimeout(timer);
  }
}

const timedOut = (): OutboundResult => ({ kind: "failed", reason: "timed out", timedOut: true });

/** The checked URL with its host replaced by the checked address: fetch has nothing left to resolve. */
export function pinnedUrl(checked: CheckedUrl): string {
  const pinned = new URL(checked.url);
  pinned.hostname = checked.address.family === 6 ? `[${checked.address.address}]` : checked.address.address;
  return pinned.href;
}

function tlsFor(checked: CheckedUrl, trustedCa: string | undefined) {
  if (checked.url.protocol !== "https:") return undefined;
  return { ...(checked.serverName ? { serverName: checked.serverName } : {}), ...(trustedCa ? { ca: trustedCa } : {}) };
}
