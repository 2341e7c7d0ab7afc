import { configText, type OtlpProfile } from "../profile";

/** Any OTLP/HTTP receiver: the full traces URL as given; auth, if any, in the user's headers (Axiom, Honeycomb...). */
export const otelCollectorProfile: OtlpProfile = {
  type: "otel-collector",
  configKeys: [{ key: "endpoint", required: true, url: true }],
  url: (config) => configText(config, "endpoint"),
  authHeaders: () => ({}),
};
