import { GatewayError } from "../errors";
import { requestContext } from "./request-context";

/**
 * Every route of the API takes JSON, so a body is read as JSON whatever its content-type says:
 * `curl -d` sends application/x-www-form-urlencoded unless told otherwise, and its JSON is still
 * JSON. A body that cannot be read is not refused here, because parsing runs before
 * authentication: it is handed on as UNREADABLE_BODY, which no body schema accepts, and the
 * validation error it causes is reported as the reason kept in the request's context
 * (`bodyError`, read by error-handler.ts). So only a caller who may call the route learns what
 * is wrong with its body.
 */
export const UNREADABLE_BODY = Symbol("unreadable body");

const isJsonType = (contentType: string) => contentType === "application/json" || /^application\/[^/]+\+json$/.test(contentType);

function unreadable(request: Request, status: number, message: string): typeof UNREADABLE_BODY {
  requestContext(request).bodyError = new GatewayError(status, message);
  return UNREADABLE_BODY;
}

/**
 * A parse hook (`contentType` without parameters, as Elysia hands it). A body over the limit is
 * refused at once: it is too large for anyone. Routes in `ownBodies` (by path) read their bodies
 * themselves, with their own parse hook: an upload taken as multipart, measured while it arrives.
 */
export function jsonBodyReader(maxBodyBytes: number, maxBodyMb: number, ownBodies: ReadonlySet<string> = new Set()) {
  return async ({ request }: { request: Request }, contentType: string): Promise<unknown> => {
    const path = new URL(request.url).pathname;
    if (ownBodies.has(path)) return undefined;
    // the sign-in and consent pages (outside /api/) post HTML forms: Elysia's own parser reads those
    if (contentType === "application/x-www-form-urlencoded" && !path.startsWith("/api/")) return undefined;
    // chunked bodies declare no length: measure them while reading
    const text = await request.text();
    if (text.length > maxBodyBytes) throw new GatewayError(413, `Request body too large: the limit is ${maxBodyMb} MB`);
    if (text.trim() === "") return unreadable(request, 400, "Request body is empty: send a JSON object with the header content-type: application/json");
    try {
      return JSON.parse(text);
    } catch {
      if (isJsonType(contentType)) return unreadable(request, 400, "Request body is not valid JSON");
      return unreadable(
        request,
        415,
        `Request body must be JSON, sent with the header content-type: application/json (got ${contentType ? `content-type: ${contentType}` : "no content-type"})`,
      );
    }
  };
}
