import { REDACTED } from "../../audit/changes";
import { isMasked } from "../../observability/secret-mask";
import type { DestinationRecord } from "../../store/store";
import { isoTime } from "../../time";
import type { DestinationDataOut } from "./model";

type Region = DestinationDataOut["regions"][number];

/** Regions as the API names them: `eu` is `europe`, each once. */
export function normalizedRegions(regions: readonly string[]): Region[] {
  return [...new Set(regions.map((r) => (r === "eu" ? "europe" : r)))] as Region[];
}

/** A destination as the API returns it: the config as stored for showing (secrets masked). */
export function renderDestination(d: DestinationRecord): DestinationDataOut {
  return {
    id: d.id,
    type: d.type as DestinationDataOut["type"],
    name: d.name,
    enabled: d.enabled,
    privacy_mode: d.privacyMode,
    sampling_rate: d.samplingRate,
    regions: normalizedRegions(d.regions),
    api_key_hashes: d.apiKeyHashes,
    filter_rules: d.filterRules as DestinationDataOut["filter_rules"],
    broadcast_generation_cost: d.broadcastGenerationCost,
    broadcast_generation_identity: d.broadcastGenerationIdentity,
    broadcast_generation_request_context: d.broadcastGenerationRequestContext,
    workspace_id: d.workspaceId,
    created_at: isoTime(d.createdAt),
    updated_at: isoTime(d.updatedAt),
    config: d.config,
  };
}

/** A shown config's masked values (secrets, header values) as the audit log writes them: not even their first characters. */
function redactedConfig(value: unknown): unknown {
  if (isMasked(value)) return REDACTED;
  if (Array.isArray(value)) return value.map(redactedConfig);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactedConfig(v)]));
}

/** What the audit log shows of a destination; `sealed_config` (a secret field) changes whenever a secret does. */
export function auditedDestination(d: DestinationRecord): Record<string, unknown> {
  const { created_at: _c, updated_at: _u, config, ...settings } = renderDestination(d);
  return { ...settings, config: redactedConfig(config), sealed_config: d.sealedConfig };
}
