import { requestContext } from "../http/request-context";
import { plainRequest, type RequestSummary } from "./request-summary";

type AfterResponse = {
  request: Request;
  route: string;
  set: { status?: number | string; headers: Record<string, unknown> };
  responseValue?: unknown;
};

/** The summary of a request answered by the HTTP layer alone (no generation). */
export function httpRequestSummary(context: AfterResponse): RequestSummary {
  const { request, set, responseValue } = context;
  const { startedAt, generationId, caller } = requestContext(request);
  const status = responseValue instanceof Response ? responseValue.status : typeof set.status === "number" ? set.status : 200;
  // an unmatched path is no route: it must not become a label of its own
  const route = context.route || "(no route)";
  return plainRequest(
    request.method,
    route,
    status,
    performance.now() - startedAt,
    caller?.via === "key" ? caller.principal.key.hash : null,
    generationId ?? null,
  );
}
