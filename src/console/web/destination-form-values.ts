/**
 * The destination form's values and the request body they make. Pure (no page code), so the
 * rules of what is sent are in one place: a secret left empty while editing is not sent (the
 * server keeps the stored one), a cleared value goes back to its default, JSON fields that do
 * not parse are refused here with a message naming the field before anything is sent.
 */
import type { Destination, DestinationTypeForm } from "./types";

export type DestinationFormValues = {
  type: string;
  name: string;
  enabled: boolean;
  privacyMode: boolean;
  /** as typed in the number input */
  samplingRate: string;
  /** hashes of the chosen keys; none: every key of the workspace */
  apiKeyHashes: string[];
  broadcastCost: boolean;
  broadcastIdentity: boolean;
  broadcastRequestContext: boolean;
  /** the type's config keys as typed; a secret is "" until retyped */
  config: Record<string, string>;
  /** JSON: an object of header names to values ("" none) */
  headers: string;
  /** JSON: the filter rules ("" none) */
  filterRules: string;
};

/** A value the form cannot send, named by the label of its field. */
export class FormProblem extends Error {}

const pretty = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value, null, 2));

/** The config keys' values as shown: a stored value, except secrets (masked on the server, retyped here). */
function shownConfig(form: DestinationTypeForm | undefined, d: Destination | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const spec of form?.config_keys ?? []) {
    const stored = d?.config[spec.key];
    out[spec.key] = spec.secret || typeof stored !== "string" ? "" : stored;
  }
  return out;
}

/** The form of a new destination of `type`, or of the stored destination `d`. */
export function initialValues(type: string, form: DestinationTypeForm | undefined, d?: Destination): DestinationFormValues {
  return {
    type: d?.type ?? type,
    name: d?.name ?? "",
    enabled: d?.enabled ?? true,
    privacyMode: d?.privacy_mode ?? false,
    samplingRate: String(d?.sampling_rate ?? 1),
    apiKeyHashes: d?.api_key_hashes ?? [],
    broadcastCost: d?.broadcast_generation_cost ?? false,
    broadcastIdentity: d?.broadcast_generation_identity ?? false,
    broadcastRequestContext: d?.broadcast_generation_request_context ?? false,
    config: shownConfig(form, d),
    headers: pretty(d?.config.headers),
    filterRules: pretty(d?.filter_rules),
  };
}

function parsedJson(label: string, text: string): unknown {
  if (text.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new FormProblem(`${label}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new FormProblem(`${label}: expected a JSON object ({ ... })`);
  return value;
}

/** The config to send: a new destination's typed values; an edit's changed values only (a cleared one as null: back to its default). */
function configBody(v: DestinationFormValues, form: DestinationTypeForm, d: Destination | undefined): Record<string, unknown> {
  const before = d ? initialValues(d.type, form, d) : undefined;
  const out: Record<string, unknown> = {};
  for (const spec of form.config_keys) {
    const value = (v.config[spec.key] ?? "").trim();
    if (!before) {
      if (value !== "") out[spec.key] = value;
    } else if (spec.secret) {
      if (value !== "") out[spec.key] = value;
    } else if (value !== before.config[spec.key]) out[spec.key] = value === "" ? null : value;
  }
  const headers = parsedJson("Extra headers", v.headers);
  if (!before) {
    if (headers !== null) out.headers = headers;
  } else if (v.headers.trim() !== before.headers.trim()) out.headers = headers;
  return out;
}

/** The settings every create and update sends. */
function settingsBody(v: DestinationFormValues): Record<string, unknown> {
  const samplingRate = Number(v.samplingRate);
  if (v.samplingRate.trim() === "" || !Number.isFinite(samplingRate)) throw new FormProblem("Sampling rate: a number from 0.0001 to 1");
  return {
    name: v.name.trim(),
    enabled: v.enabled,
    privacy_mode: v.privacyMode,
    sampling_rate: samplingRate,
    api_key_hashes: v.apiKeyHashes.length > 0 ? v.apiKeyHashes : null,
    broadcast_generation_cost: v.broadcastCost,
    broadcast_generation_identity: v.broadcastIdentity,
    broadcast_generation_request_context: v.broadcastRequestContext,
    filter_rules: parsedJson("Filter rules", v.filterRules),
  };
}

/** The body of POST /destinations (and its test) for a new destination in `workspaceId`. */
export function createBody(v: DestinationFormValues, form: DestinationTypeForm, workspaceId: string): Record<string, unknown> {
  return { type: v.type, workspace_id: workspaceId, ...settingsBody(v), config: configBody(v, form, undefined) };
}

/** The body of PATCH /destinations/:id (and its test): every setting, and only the config that changed. */
export function updateBody(v: DestinationFormValues, form: DestinationTypeForm, d: Destination): Record<string, unknown> {
  const config = configBody(v, form, d);
  return { ...settingsBody(v), ...(Object.keys(config).length > 0 ? { config } : {}) };
}
