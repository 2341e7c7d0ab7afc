import { sampleFraction, samplingKey } from "../pipeline/sampling";

/**
 * The number `io_logging_api_key_ids` names a key by. The keys table has no numeric id (a key is
 * its SHA-256 hash, and the contract's key objects carry no integer), so a key's number is the
 * first 13 hex digits of its `hash` read as an integer (below 2^52, exact in JSON):
 * `parseInt(hash.slice(0, 13), 16)`. Two keys share a number with odds of about 2^-52.
 */
export function keyNumber(hash: string): number {
  return /^[0-9a-f]{13}/.test(hash) ? parseInt(hash.slice(0, 13), 16) : -1;
}

type Settings = Readonly<Record<string, unknown>>;

/**
 * Whether I/O logging keeps a generation's prompt and completion: the workspace turned it on,
 * the key is listed (`io_logging_api_key_ids`, null: every key) and the session is sampled in
 * (`io_logging_sampling_rate`, per session like destinations: a session is kept whole).
 */
export function ioLoggingKeeps(workspaceId: string, settings: Settings, keyHash: string, request: Parameters<typeof samplingKey>[0]): boolean {
  if (settings.is_observability_io_logging_enabled !== true) return false;
  const ids = settings.io_logging_api_key_ids;
  if (Array.isArray(ids) && !ids.includes(keyNumber(keyHash))) return false;
  const rate = typeof settings.io_logging_sampling_rate === "number" ? settings.io_logging_sampling_rate : 1;
  return rate >= 1 || sampleFraction(`io-logging:${workspaceId}:`, samplingKey(request)) < rate;
}

/** Whether the workspace forwards its generations to its observability destinations. */
export const broadcastEnabled = (settings: Settings): boolean => settings.is_observability_broadcast_enabled === true;
