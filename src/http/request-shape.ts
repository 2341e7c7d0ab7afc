/**
 * What the generation lifecycle reads of an HTTP request: its path, headers and abort signal
 * (and the Request itself only as the key of its telemetry claim).
 */
export type RequestShape = { route: string; headers: Headers; signal: AbortSignal; request: Request };

export function requestShape(request: Request): RequestShape {
  return { route: new URL(request.url).pathname, headers: request.headers, signal: request.signal, request };
}
