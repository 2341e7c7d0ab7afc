/** Who sent a request, as far as this server can tell: for sign-in throttling and the audit log. */

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * The client's address, as throttling and the audit log record it. A reverse proxy on this machine (deploy/nginx.conf)
 * connects from loopback and appends the address it saw to X-Forwarded-For: that last entry is
 * the client. Anything earlier in the header was written by the client and is not believed, and
 * the header of a peer that is not on this machine is ignored.
 */
export function clientAddress(server: { requestIP(request: Request): { address: string } | null } | null, request: Request): string {
  const peer = server?.requestIP(request)?.address ?? "unknown";
  if (!LOOPBACK.test(peer)) return peer;
  const forwarded = request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
  return forwarded || peer;
}
