import type { Logger } from "../logger";
import { logRequest } from "./access-log";
import { createMetrics, type GatewayMetrics, type MetricSources, type UpstreamAttempt } from "./metrics";
import type { RequestSummary } from "./request-summary";
import { NO_JOB_STATS } from "./job-metrics";

/**
 * What the gateway tells its operator: one access-log line and the metrics per request, a warn
 * line per failed upstream call and per circuit that opens or closes. A request that reaches a
 * generation is reported when its record is committed (it knows model, tokens and cost); the
 * HTTP layer reports every other request when its response is sent.
 */
export type Telemetry = {
  readonly metrics: GatewayMetrics;
  /** this request's generation record reports it; the HTTP layer stays quiet */
  claim(request: Request): void;
  claimed(request: Request): boolean;
  requestEnded(summary: RequestSummary): void;
  /** one upstream call of the fallback loop; `retryable`: another candidate, if any, is tried next */
  attempt(a: UpstreamAttempt & { model: string; message?: string; retryable: boolean }): void;
  circuitChanged(endpoint: string, change: "opened" | "closed"): void;
};

export function createTelemetry(logger: Logger, sources: MetricSources, now?: () => number): Telemetry {
  const metrics = createMetrics(sources, now);
  const claims = new WeakSet<Request>();
  return {
    metrics,
    claim: (request) => void claims.add(request),
    claimed: (request) => claims.has(request),
    requestEnded(summary) {
      logRequest(logger, summary);
      metrics.request(summary);
    },
    attempt(a) {
      metrics.attempt(a);
      if (a.ok) return;
      logger.warn("upstream failed", {
        endpoint: a.endpoint,
        provider: a.provider,
        model: a.model,
        status: a.status,
        latency_ms: a.latencyMs,
        retryable: a.retryable,
        ...(a.message === undefined ? {} : { error: a.message }),
      });
    },
    circuitChanged(endpoint, change) {
      logger.warn(change === "opened" ? "circuit opened: the endpoint is tried last until it recovers" : "circuit closed: the endpoint recovered", { endpoint });
    },
  };
}

const NO_SOURCES: MetricSources = { circuits: () => [], reservationsHeld: async () => 0, recordsPending: () => 0, databaseUp: async () => true, jobs: async () => NO_JOB_STATS };

/** For contexts that report nothing (unit tests, CLI commands). */
export const silentTelemetry = (): Telemetry => createTelemetry({ debug() {}, info() {}, warn() {}, error() {} }, NO_SOURCES);

/**
 * For a job worker thread: its warn lines (failed upstream calls, circuits opening and closing)
 * go to the worker's log; its metrics are never scraped, so they read nothing.
 */
export const logOnlyTelemetry = (logger: Logger): Telemetry => createTelemetry(logger, NO_SOURCES);
