import { requestContext } from "../http/request-context";
import type { RefusalRecord } from "../store/store";
import { isRefusal, refusalCode, refusalReason, requestedModel } from "./refusal";
import type { RefusalRecorder } from "./refusal-recorder";
import { plainRequest, type RequestSummary } from "./request-summary";
import type { Telemetry } from "./telemetry";

type AfterResponse = {
  request: Request;
  route: string;
  body?: unknown;
  set: { status?: number | string; headers: Record<string, unknown> };
  responseValue?: unknown;
};

/** The summary of a request answered by the HTTP layer alone (no generation); a refused one names its model, cause and reason. */
export function httpRequestSummary(context: AfterResponse): RequestSummary {
  const { request, set, responseValue } = context;
  const { startedAt, generationId, caller, failure } = requestContext(request);
  const status = responseValue instanceof Response ? responseValue.status : typeof set.status === "number" ? set.status : 200;
  // an unmatched path is no route: it must not become a label of its own
  const route = context.route || "(no route)";
  const summary = plainRequest(
    request.method,
    route,
    status,
    performance.now() - startedAt,
    caller?.via === "key" ? caller.principal.key.hash : null,
    generationId ?? null,
  );
  if (!isRefusal(status, new URL(request.url).pathname)) return summary;
  return { ...summary, model: requestedModel(context.body), errorCode: refusalCode(status, failure), reason: refusalReason(status, failure) };
}

/** The refusal log's row of a refused request (its summary has an error code), with who was calling when known. */
export function refusalRecord(context: AfterResponse, summary: RequestSummary, now: number): RefusalRecord | null {
  if (summary.errorCode === null) return null;
  const { caller, generationId } = requestContext(context.request);
  const principal = caller?.via === "key" ? caller.principal : null;
  return {
    id: generationId ?? crypto.randomUUID(),
    createdAt: now,
    status: summary.status,
    errorCode: summary.errorCode,
    reason: summary.reason ?? "",
    method: summary.method,
    route: summary.route,
    model: summary.model,
    keyHash: principal?.key.hash ?? null,
    workspaceId: principal?.workspace.id ?? null,
    userId: principal?.user?.id ?? null,
  };
}

/** Reports a request the HTTP layer answered: its access-log line and metrics, and a refusal to the refusal log. */
export function reportHttpRequest(context: AfterResponse, telemetry: Telemetry, refusals: RefusalRecorder, now: number): void {
  const summary = httpRequestSummary(context);
  telemetry.requestEnded(summary);
  const refusal = refusalRecord(context, summary, now);
  if (refusal) refusals.add(refusal);
}
