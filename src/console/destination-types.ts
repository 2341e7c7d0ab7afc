import { type ConfigKeySpec, DESTINATION_TYPES, type DestinationType, type SenderRegistry } from "../observability/contract";

/** One config key of a destination type, as the console's form draws it. */
export type ConfigKeyField = {
  key: string;
  /** made from the key's name: `accessKeyId` reads "Access key ID" */
  label: string;
  required: boolean;
  /** shown as the placeholder: an empty field takes it */
  default: string | null;
  /** a password input; the stored value comes back masked */
  secret: boolean;
  /** a URL input */
  url: boolean;
  /** a select of these values */
  one_of: string[] | null;
};

/** A destination type and the fields of its config, from its sender in the registry. */
export type DestinationTypeForm = { type: DestinationType; label: string; config_keys: ConfigKeyField[] };

/** product names, which no rule of the type slugs spells right */
const TYPE_LABELS: Record<DestinationType, string> = {
  arize: "Arize",
  braintrust: "Braintrust",
  clickhouse: "ClickHouse",
  datadog: "Datadog",
  grafana: "Grafana Cloud",
  langfuse: "Langfuse",
  langsmith: "LangSmith",
  newrelic: "New Relic",
  opik: "Opik",
  "otel-collector": "OpenTelemetry collector",
  posthog: "PostHog",
  ramp: "Ramp",
  s3: "Amazon S3",
  sentry: "Sentry",
  snowflake: "Snowflake",
  weave: "W&B Weave",
  webhook: "Webhook",
};

/** words of key names that read as capitals */
const ACRONYMS = new Set(["api", "id", "url", "dsn", "ml", "otlp"]);

/** `apiKey` → "API key", `otlpEndpoint` → "OTLP endpoint": the camelCase words, the first capitalized, acronyms in capitals. */
export function configKeyLabel(key: string): string {
  const words = key.split(/(?<=[a-z0-9])(?=[A-Z])/).map((w) => w.toLowerCase());
  return words.map((w, i) => (ACRONYMS.has(w) ? w.toUpperCase() : i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(" ");
}

function fieldOf(spec: ConfigKeySpec): ConfigKeyField {
  return {
    key: spec.key,
    label: configKeyLabel(spec.key),
    required: spec.required,
    default: spec.default ?? null,
    secret: spec.secret ?? false,
    url: spec.url ?? false,
    one_of: spec.oneOf ? [...spec.oneOf] : null,
  };
}

/**
 * Every type this gateway can send to, with its config keys as the sender declares them (the same
 * `configKeys` the API checks a config against), so the form cannot drift from the check. A type
 * without a sender is left out: the API would refuse it.
 */
export function destinationTypeForms(senders: SenderRegistry): DestinationTypeForm[] {
  const forms: DestinationTypeForm[] = [];
  for (const type of DESTINATION_TYPES) {
    let keys: readonly ConfigKeySpec[];
    try {
      keys = senders(type).configKeys;
    } catch {
      continue;
    }
    forms.push({ type, label: TYPE_LABELS[type], config_keys: keys.map(fieldOf) });
  }
  return forms;
}
