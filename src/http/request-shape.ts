import type { RequestShape } from "../gateway/generation";
import { requestContext } from "./request-context";

/** What the generation lifecycle reads of an HTTP request: its path, headers and abort signal, and how to claim its report. */
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
