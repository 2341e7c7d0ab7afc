import { requestContext } from "./request-context";

/**
 * What the generation lifecycle reads of an HTTP request: no Request or Server object reaches it.
 * `claim` hands the request's report (access-log line, metrics) to the generation's record,
 * which knows model, tokens and cost; the HTTP layer then reports nothing of it.
 */
export type RequestShape = { route: string; headers: Headers; signal: AbortSignal; claim: () => void };

export function requestShape(request: Request): RequestShape {
  return {
    route: new URL(request.url).pathname,
    headers: request.headers,
    signal: request.signal,
    claim: () => {
      requestContext(request).claimed = true;
    },
  };
}
