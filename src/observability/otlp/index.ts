import type { DestinationSender } from "../contract";
import { otlpSender } from "./otlp-sender";
import { arizeProfile } from "./profiles/arize";
import { grafanaProfile } from "./profiles/grafana";
import { langfuseProfile } from "./profiles/langfuse";
import { langsmithProfile } from "./profiles/langsmith";
import { newRelicProfile } from "./profiles/newrelic";
import { otelCollectorProfile } from "./profiles/otel-collector";
import { rampProfile } from "./profiles/ramp";
import { sentryProfile } from "./profiles/sentry";
import { webhookProfile } from "./profiles/webhook";

/** The OpenTelemetry-based types (OpenRouter's list): one OTLP/HTTP JSON exporter, a profile each. */
export const OTLP_PROFILES = [
  otelCollectorProfile,
  webhookProfile,
  grafanaProfile,
  newRelicProfile,
  sentryProfile,
  langfuseProfile,
  langsmithProfile,
  arizeProfile,
  rampProfile,
] as const;

export const otlpSenders: readonly DestinationSender[] = OTLP_PROFILES.map(otlpSender);
