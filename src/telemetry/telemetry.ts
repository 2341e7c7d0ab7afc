import type { Logger } from "../logger";
import { logRequest } from "./access-log";
import type { GatewayMetrics, UpstreamAttempt } from "./metrics";
import type { RequestSummary } from "./request-summary";

/**
 * What the gateway tells its operator: one access-log line and the metrics per request, a warn
 * line per failed upstream call and per circuit that opens or closes. A request that reaches a
 * generation is reported when its record is committed (it knows model, tokens and cost); the
 * HTTP layer reports every other request when its response is sent.
 */
export type Telemetry = {
  readonly metrics: GatewayMetrics;
  requestEnded(summary: RequestSummary): void;
  /** one upstream call of the fallback loop; `retryable`: another candidate, if any, is tried next */
  attempt(a: UpstreamAttempt & { model: string; message?: string; retryable: boolean }): void;
  circuitChanged(endpoint: string, change: "opened" | "closed"): void;
};

/**
 * Telemetry that logs through `logger` and counts in `metrics`. This module loads no metrics
 * library: a job worker thread, which is never scraped, imports it without prom-client
 * (create-telemetry.ts builds the serving thread's, with the Prometheus metrics).
 */
export function reportingTelemetry(logger: Logger, metrics: GatewayMetrics): Telemetry {
  return {
    metrics,
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
      logger.warn(change === "opened" ? "circuit opened: the endpoint is tried last until it recovers" : "circuit closed: the endpoint recovered", {
        endpoint,
      });
    },
  };
}

/** Metrics that count nothing, for telemetry that is never scraped. */
const NO_METRICS: GatewayMetrics = {
  request() {},
  attempt() {},
  render: async () => "",
  contentType: "text/plain; version=0.0.4; charset=utf-8",
};

/** For contexts that report nothing (unit tests, CLI commands). */
export const silentTelemetry = (): Telemetry => reportingTelemetry({ debug() {}, info() {}, warn() {}, error() {} }, NO_METRICS);

/**
 * For a job worker thread: its warn lines (failed upstream calls, circuits opening and closing)
 * go to the worker's log; its metrics are never scraped, so they count nothing.
 */
export const logOnlyTelemetry = (logger: Logger): Telemetry => reportingTelemetry(logger, NO_METRICS);
