import { errorBody } from "../errors";
import type { InboundCodec } from "../ir/codec";
import { type RenderErrorBody, requestContext } from "./request-context";

/**
 * Which error body a request's clients expect. A route whose clients speak a wire format declares
 * it with `transform: rendersErrorsWith(codec, fullPath)`, which keeps the choice in the request's
 * context (request-context.ts). Errors raised before any hook of the route runs (a
 * body over the size limit, refused from its content-length or while the global parse hook reads
 * it) find it by the route's path. Other routes get the gateway's standard body.
 */

const byPath = new Map<string, RenderErrorBody>();

/**
 * A route `transform` hook: it runs before validation and authentication, so their errors are
 * rendered this way too. `fullPath` is the route's path with its module's prefix.
 */
export function rendersErrorsWith(codec: Pick<InboundCodec, "errorBody">, fullPath: string) {
  byPath.set(fullPath, codec.errorBody);
  return ({ request }: { request: Request }): void => {
    requestContext(request).errorBody = codec.errorBody;
  };
}

/** The route's path as declared: Elysia routes a trailing slash to the same route. */
function routePath(url: string): string {
  const path = new URL(url).pathname;
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

export function errorBodyFor(request: Request, status: number, message: string, metadata?: Record<string, unknown>): Record<string, unknown> {
  const render = requestContext(request).errorBody ?? byPath.get(routePath(request.url));
  return render ? render(status, message, metadata) : errorBody(status, message, metadata);
}
