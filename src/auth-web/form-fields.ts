/**
 * A field of a submitted form (urlencoded, or JSON from a script), as a string: missing, repeated
 * or non-string fields read as undefined, so a form cannot smuggle an array where one value goes.
 */
export function formField(body: unknown, name: string): string | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * The client's address, for sign-in throttling. A reverse proxy on this machine (deploy/nginx.conf)
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
