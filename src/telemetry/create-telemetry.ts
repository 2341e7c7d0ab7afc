import type { Logger } from "../logger";
import { createMetrics, type MetricSources } from "./metrics";
import { reportingTelemetry, type Telemetry } from "./telemetry";

/** The serving thread's telemetry: the access log and the Prometheus metrics read from `sources`. */
export const createTelemetry = (logger: Logger, sources: MetricSources, now?: () => number): Telemetry =>
  reportingTelemetry(logger, createMetrics(sources, now));
