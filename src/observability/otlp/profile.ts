import type { ConfigKeySpec, Destination, DestinationType, ObservedGeneration } from "../contract";
import type { Attributes } from "./attribute-value";

/** A destination's opened config, as senders read it. */
export type DestinationConfig = Destination["config"];

/**
 * What one OTLP destination type adds to the shared exporter: where the traces
 * go, its auth headers, resource attributes and the attributes of its own names.
 */
export type OtlpProfile = Readonly<{
  type: DestinationType;
  configKeys: readonly ConfigKeySpec[];
  /** the traces URL */
  url(config: DestinationConfig): string;
  /** POST unless the type says otherwise (webhook: its `method`) */
  method?(config: DestinationConfig): "POST" | "PUT";
  /** the auth headers; a header of the user's config never replaces one of these */
  authHeaders(config: DestinationConfig): Record<string, string>;
  /** added to `service.name` on the resource */
  resourceAttributes?(config: DestinationConfig): Attributes;
  /** added to the generation span */
  generationAttributes?(g: ObservedGeneration, d: Destination): Attributes;
  /** added to every span of the trace (types that read trace-level fields off each span) */
  everySpanAttributes?(g: ObservedGeneration, d: Destination): Attributes;
  /** the longest string attribute the type takes (New Relic: 4095); 10,000,000 otherwise */
  attributeCap?: number;
}>;

/** A config value the config check made sure of (required, or with a default). */
export function configText(config: DestinationConfig, key: string): string {
  const value = config[key];
  return typeof value === "string" ? value : "";
}

/** `base` + `path`, without a doubled slash when the base ends in one. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, "") + path;
}

export const basicAuth = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
