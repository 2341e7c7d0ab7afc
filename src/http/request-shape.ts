import type { RequestShape } from "../gateway/generation";

/** What the generation lifecycle reads of an HTTP request: its path, headers and abort signal. */
export function requestShape(request: Request): RequestShape {
  return { route: new URL(request.url).pathname, headers: request.headers, signal: request.signal, request };
}
