/**
 * The key of an `Authorization: Bearer <key>` header; undefined without one. The scheme is
 * matched without regard to case (RFC 9110 §11.1). A key is never read from the query string:
 * URLs end up in access logs, proxies and browser history.
 */
export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  if (header === null || header.length < 7 || header.slice(0, 7).toLowerCase() !== "bearer ") return undefined;
  const token = header.slice(7).trim();
  return token === "" ? undefined : token;
}
