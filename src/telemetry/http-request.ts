import type { Principal } from "../http/principal";
import { plainRequest, type RequestSummary } from "./request-summary";
import { generationIdOf } from "../http/generation-id";

const startedAt = new WeakMap<Request, number>();

/** Marks when a request came in; the first thing the app does with it. */
export function requestStarted(request: Request): void {
  startedAt.set(request, performance.now());
}

type AfterResponse = {
  request: Request;
  route: string;
  set: { status?: number | string; headers: Record<string, unknown> };
  responseValue?: unknown;
  principal?: Principal;
};

/** The summary of a request answered by the HTTP layer alone (no generation). */
export function httpRequestSummary(context: AfterResponse): RequestSummary {
  const { request, set, responseValue } = context;
  const began = startedAt.get(request);
  const status = responseValue instanceof Response ? responseValue.status : typeof set.status === "number" ? set.status : 200;
  const generationId = generationIdOf(request) ?? null;
  // an unmatched path is no route: it must not become a label of its own
  const route = context.route || "(no route)";
  return plainRequest(request.method, route, status, began === undefined ? 0 : performance.now() - began, context.principal?.key.hash ?? null, generationId);
}
